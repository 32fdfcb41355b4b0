import SubscriberABI
import SubscriberValues

extension LifecycleError {
    /// The error an `adh_error` describes (copied; read only as far as its `struct_size` covers).
    package init(abi pointer: UnsafePointer<adh_error>) {
        let error = ABI.readCovered(pointer)
        self.init(domain: error.domain.string ?? "", code: Int(error.code), message: error.message.string ?? "")
    }

    /// Calls `body` with this error as a borrowed `adh_error`.
    package func withABIError<R>(_ body: (UnsafePointer<adh_error>) throws -> R) rethrows -> R {
        try withABIString(domain) { domain in
            try withABIString(message) { message in
                var error = adh_error(struct_size: UInt32(MemoryLayout<adh_error>.size), domain: domain,
                                      code: Int64(code), message: message)
                return try body(&error)
            }
        }
    }
}
