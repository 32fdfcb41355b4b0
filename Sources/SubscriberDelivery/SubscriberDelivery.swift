// The host's delivery engine runs the event model's rows (SubscriberEventModel); its API speaks of
// events, calls and reports, so importing it (or SubscriberHost, which re-exports it) imports them too.
@_exported import SubscriberEventModel
