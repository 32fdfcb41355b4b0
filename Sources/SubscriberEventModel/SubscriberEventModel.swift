// The event model both sides run: the event table (families, rows, shapes), reconcilers and
// policies, `LifecycleEvent`, `EventCall`, `DispatchReport`, the ABI readers and the SDK's C glue.
// Plugins link it through SubscriberKit and never import it; the host re-exports it (its public API
// speaks of events, calls and reports). The values it is written in come with it.
@_exported import SubscriberValues
