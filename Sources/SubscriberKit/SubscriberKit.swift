// What plugin authors import: the event protocols, `AppDelegateSubscriberBase` and the export, here;
// the values their methods take and return, the context and completion handlers, from
// SubscriberValues, which this module re-exports. The event model a plugin runs (SubscriberEventModel:
// the event table, the SDK's C glue) is linked, never shown.
@_exported import SubscriberValues
