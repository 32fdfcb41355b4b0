#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberABI

/// The cheap checks of a struct a plugin hands the host to read (a subscriber from `create`, a family
/// vtable from `get_extension`) before the host reads it: aligned for its pointers, its `struct_size`
/// readable, and every byte that `struct_size` covers (up to the host's size of the struct) readable.
/// A plugin that fails them is refused with one line; reading such a struct would trap the host
/// (a misaligned load) or fault it (unmapped memory) with nothing naming the plugin.
package enum VTableCheck {
    /// The alignment every ABI struct the plugin hands over has: each is a `uint32_t struct_size`
    /// followed by pointers (`adh_subscriber`, and every extension family's vtable).
    package static let alignment = MemoryLayout<adh_subscriber>.alignment

    /// What is wrong with the struct at `pointer`, whose host-side size is `size`: nil when it can be
    /// read, else what was expected and what was found.
    package static func problem(at pointer: UnsafeRawPointer, size: Int) -> (expected: String, found: String)? {
        let address = UInt(bitPattern: pointer)
        guard address % UInt(alignment) == 0 else {
            return ("a struct at an address aligned to \(alignment) bytes", "\(hex(address)), misaligned by \(address % UInt(alignment))")
        }
        guard isReadable(pointer, count: MemoryLayout<UInt32>.size) else {
            return ("a struct whose struct_size can be read", "unreadable memory at \(hex(address))")
        }
        let declared = Int(pointer.load(as: UInt32.self))
        let covered = min(declared, size) & ~7  // what ABI.readCovered copies
        guard covered <= MemoryLayout<UInt32>.size || isReadable(pointer, count: covered) else {
            return ("the \(covered) bytes its struct_size (\(declared)) covers readable",
                    "unreadable memory within \(hex(address))..<\(hex(address + UInt(covered)))")
        }
        return nil
    }

    /// Whether `count` bytes (at most a page or two: a vtable) at `pointer` can be read, asked of the
    /// kernel rather than tried: they are written to a fresh pipe, which fails with EFAULT (or
    /// writes fewer) where memory is unreadable. A pipe of its own each time, so no descriptor a
    /// plugin may have closed or reused is ever written to. True when it cannot be told (no
    /// descriptor left): the alignment was checked, and nothing else is lost.
    package static func isReadable(_ pointer: UnsafeRawPointer, count: Int) -> Bool {
        // A pipe holds 64 KiB (at least a page): the write never blocks for a struct of the host's size.
        precondition(count <= 4096, "VTableCheck: \(count) bytes is no vtable")
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return true }
        // Closed before this returns; close-on-exec for the moment a child may be spawned meanwhile.
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        defer {
            close(ends[0])
            close(ends[1])
        }
        var written = 0
        while written < count {
            let result = write(ends[1], pointer + written, count - written)
            if result > 0 {
                written += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                return false  // EFAULT: the kernel could not read them
            }
        }
        return true
    }

    /// `0x7f3a2c01d0c3`.
    static func hex(_ address: UInt) -> String { "0x" + String(address, radix: 16) }
}
