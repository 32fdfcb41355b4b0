import SubscriberABI

/// Builds the `adh_subscriber` of an exported instance: an entry for each event the subscriber's
/// type handles (the event protocols it adopts), NULL for every other, as the header promises and
/// as C plugins do. So a host skips the subscriber for those events, and lists only these.
enum SubscriberVTable {
    /// The vtable for `instance` (a retained ``ExportedInstance``) with `handlers` by event index.
    static func make(instance: UnsafeMutableRawPointer, handlers: [EventHandler?]) -> adh_subscriber {
        var v = adh_subscriber()
        v.struct_size = UInt32(MemoryLayout<adh_subscriber>.size)
        v.instance = instance
        v.destroy = { ExportedInstance.destroy($0) }
        for (row, handler) in zip(EventTable.rows, handlers) where handler != nil {
            row.install(&v)
        }
        return v
    }
}
