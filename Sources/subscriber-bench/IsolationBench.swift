#if canImport(Glibc)
import Glibc
#endif
import SubscriberKit

/// The floor for process isolation: one small frame sent to another process over a socketpair and
/// sent back, with nothing else — no plugin, no JSON, no dispatcher. An isolated event costs at least
/// one such round trip per child (docs/isolation.md), so this is the limit its rows are measured against.
///
/// The other process is this executable started again in a child mode (`--ping-pong-child`), with its
/// end of the pair as descriptor 3: what an isolated plugin's child is too.
struct IsolationFloor: Sendable {
    /// Nanoseconds per round trip (write a frame, the child reads it and writes it back, read it).
    var pingPong: Stats
    /// Bytes of one frame, its length prefix included.
    var frameBytes: Int
}

enum IsolationBench {
    /// The argument that makes this executable the echoing child.
    static let childFlag = "--ping-pong-child"
    /// The child's end of the pair.
    static let childDescriptor: Int32 = 3
    /// A frame: a 4-byte little-endian length, a type byte and a 16-byte payload (an event's header
    /// in a compact protocol: a sequence number and a row index fit in it).
    static let payloadBytes = 17
    /// The largest frame either side accepts; a longer length ends the exchange (never trusted).
    static let maximumFrame = 4096

    /// Runs the child, `repetitions` batches of round trips (each ≥ the sampler's minimum batch), and
    /// stops it. `executable`: this program's path.
    @MainActor
    static func run(executable: String, sampler: Sampler, progress: (String) -> Void) async throws -> IsolationFloor {
        progress("isolation: socketpair ping-pong with a child process")
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw BenchError("socketpair: \(String(cString: strerror(errno)))")
        }
        let ours = pair[0]
        // The child's end above 3, so that dup2 onto 3 makes a new descriptor (without close-on-exec).
        let theirs = fcntl(pair[1], F_DUPFD_CLOEXEC, 10)
        close(pair[1])
        guard theirs >= 0 else {
            close(ours)
            throw BenchError("fcntl(F_DUPFD_CLOEXEC): \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, theirs, childDescriptor)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(executable), strdup(childFlag), nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(theirs)
        guard spawned == 0 else {
            close(ours)
            throw BenchError("posix_spawn \(executable): \(String(cString: strerror(spawned)))")
        }
        defer {
            close(ours)  // the child reads end of file and exits
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }

        var exchange = Exchange(descriptor: ours)
        var failure: String?
        let batch: (Int) async -> Void = { count in
            guard failure == nil else { return }
            for _ in 0..<count where failure == nil {
                failure = exchange.roundTrip()
            }
        }
        let count = await sampler.calibrate(batch)
        var samples: [Double] = []
        for _ in 0..<sampler.repetitions { samples.append(await sampler.time(count, batch)) }
        if let failure { throw BenchError("ping-pong: \(failure)") }
        return IsolationFloor(pingPong: Stats(samples), frameBytes: 4 + payloadBytes)
    }

    /// The child: echoes every frame on descriptor 3 until end of file. Exit status 0 at end of file,
    /// 1 on a bad frame or an error.
    static func child() -> Int32 {
        var exchange = Exchange(descriptor: childDescriptor)
        while true {
            let problem: String
            switch exchange.receive() {
            case .frame(let length):
                guard let failed = exchange.echo(length: length) else { continue }
                problem = failed
            case .end:
                return 0
            case .failure(let failed):
                problem = failed
            }
            let line = Array("subscriber-bench \(childFlag): \(problem)\n".utf8)
            _ = line.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            return 1
        }
    }

    /// One end of the pair, with its buffers: a frame written whole in one `write`, read with as few
    /// `read`s as the kernel allows (usually one).
    struct Exchange {
        enum Received {
            case frame(length: Int)
            case end
            case failure(String)
        }

        let descriptor: Int32
        /// The parent's frame.
        private let outgoing: [UInt8]
        /// What was read and not yet consumed; a frame received is at its start.
        private var incoming = [UInt8](repeating: 0, count: IsolationBench.maximumFrame)
        private var filled = 0

        init(descriptor: Int32) {
            self.descriptor = descriptor
            let length = UInt32(IsolationBench.payloadBytes)
            outgoing = [UInt8(length & 0xff), UInt8(length >> 8 & 0xff), UInt8(length >> 16 & 0xff), UInt8(length >> 24)]
                + [1] + [UInt8](repeating: 0x5a, count: IsolationBench.payloadBytes - 1)
        }

        /// The parent's side: sends its frame, waits for it to come back; nil, or what went wrong.
        mutating func roundTrip() -> String? {
            let written = outgoing.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard written == outgoing.count else { return "write: \(written) of \(outgoing.count) bytes" }
            switch receive() {
            case .frame(let length):
                consume(length)
                return length == IsolationBench.payloadBytes ? nil : "a frame of \(length) bytes came back"
            case .end: return "the child closed its end"
            case .failure(let problem): return problem
            }
        }

        /// The child's side: writes back the frame just received (`length` payload bytes) and consumes it.
        mutating func echo(length: Int) -> String? {
            let total = 4 + length
            let written = incoming.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, total) }
            consume(length)
            return written == total ? nil : "write: \(written) of \(total) bytes"
        }

        /// Drops the frame of `length` payload bytes at the start of the buffer, keeping what followed.
        private mutating func consume(_ length: Int) {
            let total = 4 + length
            if filled > total {
                incoming.withUnsafeMutableBytes { bytes in
                    _ = memmove(bytes.baseAddress!, bytes.baseAddress! + total, filled - total)
                }
            }
            filled -= total
        }

        /// Reads until one whole frame is buffered; its payload length. The length is checked before
        /// it is used: never trusted from the other side.
        mutating func receive() -> Received {
            while true {
                if filled >= 4 {
                    let length = Int(incoming[0]) | Int(incoming[1]) << 8 | Int(incoming[2]) << 16 | Int(incoming[3]) << 24
                    guard length >= 1, 4 + length <= IsolationBench.maximumFrame else {
                        return .failure("a frame length of \(length) bytes (expected 1 to \(IsolationBench.maximumFrame - 4))")
                    }
                    if filled >= 4 + length { return .frame(length: length) }
                }
                let count = incoming.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
                if count == 0 { return .end }
                if count < 0 {
                    if errno == EINTR { continue }
                    return .failure("read: \(String(cString: strerror(errno)))")
                }
                filled += count
            }
        }
    }

    /// The text report's limit rows: `[limit (the floor of what), ns median (min–max)]`.
    static func limitRows(_ floor: IsolationFloor?) -> [[String]] {
        guard let floor else { return [] }
        return [["socketpair ping-pong, 2 processes, one \(floor.frameBytes)-byte frame each way (floor: isolated event)",
                 Format.stats(floor.pingPong)]]
    }

    /// The JSON report's limit rows.
    static func limitJSON(_ floor: IsolationFloor?) -> [JSONValue] {
        guard let floor else { return [] }
        return [["limit": "socketpair ping-pong", "frameBytes": .number(Double(floor.frameBytes)),
                 "nanosecondsPerRoundTrip": floor.pingPong.json, "floorOf": "isolated event"]]
    }
}
