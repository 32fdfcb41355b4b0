#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The first bytes of an ELF file, enough to tell whether the host could load it: magic, class,
/// byte order, type and machine. Read before hashing, so that a large file that is not a shared
/// object for this machine is refused after 64 bytes instead of after hashing all of it.
struct ELFHeader {
    /// The size of an ELF64 header (`Elf64_Ehdr`).
    static let size = 64

    /// What the host can load: a 64-bit shared object of its own byte order and machine.
    static let hostMachine: UInt16 = {
        #if arch(x86_64)
        UInt16(EM_X86_64)
        #elseif arch(arm64)
        UInt16(EM_AARCH64)
        #elseif arch(riscv64)
        UInt16(EM_RISCV)
        #elseif arch(powerpc64le) || arch(powerpc64)
        UInt16(EM_PPC64)
        #elseif arch(s390x)
        UInt16(EM_S390)
        #else
        UInt16(EM_NONE)  // unknown: the machine check is left to dlopen
        #endif
    }()

    /// `ELFDATA2LSB` on a little-endian host, `ELFDATA2MSB` on a big-endian one.
    static let hostByteOrder: UInt8 = {
        #if _endian(little)
        UInt8(ELFDATA2LSB)
        #else
        UInt8(ELFDATA2MSB)
        #endif
    }()

    /// Why the file at descriptor `fd` (whose size is `size`) is not a shared object the host can
    /// load, for "found …"; nil when its header says it is. Reads at most ``size`` bytes at offset 0.
    static func problem(fd: Int32, size: Int64) -> String? {
        var bytes = [UInt8](repeating: 0, count: Self.size)
        let count = bytes.withUnsafeMutableBytes { buffer -> Int in
            var total = 0
            while total < buffer.count {
                let got = pread(fd, buffer.baseAddress! + total, buffer.count - total, off_t(total))
                if got > 0 { total += got; continue }
                if got < 0 && errno == EINTR { continue }
                return got < 0 && total == 0 ? -1 : total
            }
            return total
        }
        if count < 0 { return "a file it cannot read (\(FilePaths.errorText(errno)))" }
        if count == 0 { return "an empty file" }
        guard count >= 4, bytes[0] == 0x7f, bytes[1] == UInt8(ascii: "E"), bytes[2] == UInt8(ascii: "L"),
              bytes[3] == UInt8(ascii: "F")
        else {
            let start = bytes[0..<min(count, 4)].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }
            return "a file that is not ELF (\(size) bytes, starting \(start.joined(separator: " ")))"
        }
        guard count == Self.size else { return "a truncated ELF header (\(size) bytes)" }
        guard bytes[Int(EI_CLASS)] == UInt8(ELFCLASS64) else {
            return bytes[Int(EI_CLASS)] == UInt8(ELFCLASS32) ? "a 32-bit ELF file" : "an ELF file of unknown class \(bytes[Int(EI_CLASS)])"
        }
        guard bytes[Int(EI_DATA)] == hostByteOrder else { return "an ELF file of the other byte order" }
        let half = { (offset: Int) -> UInt16 in
            hostByteOrder == UInt8(ELFDATA2LSB) ? UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
                : UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
        }
        let type = half(16), machine = half(18)  // e_type, e_machine
        guard type == UInt16(ET_DYN) else {
            switch Int32(type) {
            case ET_EXEC: return "an ELF executable (not position-independent)"
            case ET_REL: return "an ELF relocatable object (a .o file, not linked)"
            case ET_CORE: return "an ELF core dump"
            default: return "an ELF file of type \(type)"
            }
        }
        guard hostMachine == UInt16(EM_NONE) || machine == hostMachine else {
            return "a shared object for \(machineName(machine)), not for this host's \(machineName(hostMachine))"
        }
        return nil
    }

    /// A readable name for an `e_machine` value.
    static func machineName(_ machine: UInt16) -> String {
        switch Int32(machine) {
        case EM_X86_64: "x86-64"
        case EM_386: "x86 (32-bit)"
        case EM_AARCH64: "AArch64"
        case EM_ARM: "ARM (32-bit)"
        case EM_RISCV: "RISC-V"
        case EM_PPC64: "PowerPC64"
        case EM_S390: "s390"
        default: "machine \(machine)"
        }
    }
}
