#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names of the functions and data objects an ELF64 little-endian x86-64 shared object defines, read
/// from its `.symtab` (every symbol, local ones too) or, in a stripped file, from its `.dynsym` (the
/// exported ones).
///
/// Reading costs a few `pread`s: the header, the section header table, one symbol table and its string
/// table. Every offset and size is checked against the file's length before anything is read, so a
/// malformed file is an ``ELFSymbolsError`` (one line), never a crash, and the work is linear in the
/// file's size, which is at most ``sizeLimit``. (SubscriberHost's `ELFHeader` answers "could the host
/// load this?" from the first 64 bytes and is internal to that module; this reader needs the section
/// header fields as well, so it reads the header itself.)
struct ELFSymbols: Sendable, Equatable {
    /// The largest file read: plugins are a few MiB; anything past this is refused before reading.
    static let sizeLimit: Int64 = 512 << 20

    /// The section the names come from: ".symtab" or ".dynsym".
    let table: String
    /// Names of the defined functions (`STT_FUNC`, any binding), in table order.
    let functions: [String]
    /// Names of the defined data objects (`STT_OBJECT`, any binding), in table order: Swift's protocol
    /// conformance descriptors (`…Mc`) are data, not functions.
    let objects: [String]
    /// The libraries the file needs (`DT_NEEDED` of its `.dynamic` section), in order: a Swift file
    /// built without optimisation (`-Onone`) needs libswiftSwiftOnoneSupport.so.
    var neededLibraries: [String] = []

    /// The defined function and data symbols of the shared object at `path`.
    static func read(path: String) throws(ELFSymbolsError) -> ELFSymbols {
        let file = try ELFFile(path: path)
        defer { file.closeFile() }
        return try file.symbols()
    }
}

/// An open ELF file and its length; every read is checked against that length first.
private struct ELFFile {
    // Values from <elf.h>, spelled out: only x86-64 ELF64 little-endian files are read.
    static let headerSize = 64, sectionHeaderSize: UInt64 = 64, symbolSize: UInt64 = 24
    static let sectionTypeSymtab: UInt32 = 2, sectionTypeStrtab: UInt32 = 3, sectionTypeDynsym: UInt32 = 11
    static let sectionTypeDynamic: UInt32 = 6, dynamicEntrySize: UInt64 = 16, dynamicTagNeeded: UInt64 = 1
    /// At most this many DT_NEEDED names are read, each at most ``neededNameLimit`` bytes.
    static let neededLimit = 1_024, neededNameLimit = 4_096
    static let symbolTypeObject: UInt8 = 1, symbolTypeFunction: UInt8 = 2

    let path: String
    let fd: Int32
    let size: UInt64

    init(path: String) throws(ELFSymbolsError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ELFSymbolsError(path: path, what: "the file", expected: "a readable file", found: Self.errorText(errno))
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let code = errno
            _ = close(fd)
            throw ELFSymbolsError(path: path, what: "the file", expected: "a readable file", found: Self.errorText(code))
        }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_size <= ELFSymbols.sizeLimit else {
            _ = close(fd)
            let kind = status.st_mode & S_IFMT
            let found = kind == S_IFREG ? "\(status.st_size) bytes" : kind == S_IFDIR ? "a directory" : "not a regular file"
            throw ELFSymbolsError(path: path, what: "the file", expected: "a regular file of at most 512 MiB",
                                  found: found)
        }
        self.fd = fd
        self.size = UInt64(status.st_size)
    }

    func closeFile() { _ = close(fd) }

    /// The names of the defined functions and objects of the symbol table the section headers point to.
    func symbols() throws(ELFSymbolsError) -> ELFSymbols {
        let header = try read(at: 0, count: min(size, UInt64(Self.headerSize)), what: "the ELF header")
        try checkIdentity(header)
        let sections = try sectionHeaders(header)
        // .symtab has every symbol (local ones too, where the plugin's own types live); a stripped file
        // keeps only .dynsym.
        let table = sections.firstIndex { $0.type == Self.sectionTypeSymtab }
            ?? sections.firstIndex { $0.type == Self.sectionTypeDynsym }
        guard let table else {
            throw error("the symbol table", expected: "a .symtab or .dynsym section",
                        found: "neither among \(sections.count) sections")
        }
        let symtab = sections[table]
        let tableName = symtab.type == Self.sectionTypeSymtab ? ".symtab" : ".dynsym"
        let what = "\(tableName) (section \(table))"
        guard symtab.entrySize == Self.symbolSize, symtab.size % Self.symbolSize == 0 else {
            throw error(what, expected: "24-byte entries filling the section",
                        found: "entry size \(symtab.entrySize), section size \(symtab.size)")
        }
        guard symtab.link < sections.count, sections[Int(symtab.link)].type == Self.sectionTypeStrtab else {
            throw error(what, expected: "a link to a string table section",
                        found: symtab.link < sections.count ? "section \(symtab.link) of type \(sections[Int(symtab.link)].type)"
                            : "link \(symtab.link) past the \(sections.count) sections")
        }
        let strtab = sections[Int(symtab.link)]
        let symbolBytes = try read(at: symtab.offset, count: symtab.size, what: what)
        let stringBytes = try read(at: strtab.offset, count: strtab.size, what: "its string table (section \(symtab.link))")
        var symbols = try names(table: tableName, symbols: symbolBytes, strings: stringBytes)
        symbols.neededLibraries = try neededLibraries(sections)
        return symbols
    }

    /// The DT_NEEDED names of the `.dynamic` section, read from the string table it links to; none
    /// when the file has no `.dynamic` section.
    private func neededLibraries(_ sections: [Section]) throws(ELFSymbolsError) -> [String] {
        guard let index = sections.firstIndex(where: { $0.type == Self.sectionTypeDynamic }) else { return [] }
        let dynamic = sections[index]
        let what = ".dynamic (section \(index))"
        guard dynamic.size % Self.dynamicEntrySize == 0, dynamic.link < sections.count,
              sections[Int(dynamic.link)].type == Self.sectionTypeStrtab
        else {
            throw error(what, expected: "16-byte entries and a link to a string table", found: "size \(dynamic.size), link \(dynamic.link)")
        }
        let entries = try read(at: dynamic.offset, count: dynamic.size, what: what)
        let strings = sections[Int(dynamic.link)]
        let stringBytes = try read(at: strings.offset, count: strings.size, what: "its string table (section \(dynamic.link))")
        var needed: [String] = []
        for entry in stride(from: 0, to: entries.count, by: Int(Self.dynamicEntrySize)) where needed.count < Self.neededLimit {
            let tag = entries.u64(entry)
            if tag == 0 { break }  // DT_NULL ends the table
            guard tag == Self.dynamicTagNeeded else { continue }
            let start = entries.u64(entry + 8)
            guard start < UInt64(stringBytes.count) else {
                throw error(what, expected: "DT_NEEDED names inside the string table (\(stringBytes.count) bytes)",
                            found: "name offset \(start)")
            }
            let limit = min(stringBytes.count, Int(start) + Self.neededNameLimit)
            guard let end = stringBytes[Int(start)..<limit].firstIndex(of: 0) else {
                throw error(what, expected: "DT_NEEDED names ending in NUL within \(Self.neededNameLimit) bytes",
                            found: "none from offset \(start)")
            }
            needed.append(String(decoding: stringBytes[Int(start)..<end], as: UTF8.self))
        }
        return needed
    }

    /// Checks magic, class, byte order, type and machine.
    /// `header` is the file's first 64 bytes, or all of it when it is shorter.
    private func checkIdentity(_ header: [UInt8]) throws(ELFSymbolsError) {
        guard header.starts(with: [0x7f, UInt8(ascii: "E"), UInt8(ascii: "L"), UInt8(ascii: "F")]) else {
            let start = header.prefix(4).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
            throw error("the ELF header", expected: "an ELF file (starting 7f 45 4c 46)",
                        found: header.isEmpty ? "an empty file" : "a file of \(size) bytes starting \(start)")
        }
        guard header.count == Self.headerSize else {
            throw error("the ELF header", expected: "\(Self.headerSize) bytes", found: "a file of \(size) bytes")
        }
        guard header[4] == 2 else { throw error("the ELF class", expected: "64-bit (2)", found: "\(header[4])") }
        guard header[5] == 1 else { throw error("the ELF byte order", expected: "little-endian (1)", found: "\(header[5])") }
        let type = header.u16(16), machine = header.u16(18)
        guard type == 3 else { throw error("the ELF type", expected: "a shared object (3)", found: "type \(type)") }
        guard machine == 62 else { throw error("the ELF machine", expected: "x86-64 (62)", found: "machine \(machine)") }
    }

    /// One section header: the fields the symbol reader needs.
    struct Section {
        let type: UInt32, offset: UInt64, size: UInt64, link: UInt32, entrySize: UInt64
    }

    /// The section header table, checked to lie inside the file.
    private func sectionHeaders(_ header: [UInt8]) throws(ELFSymbolsError) -> [Section] {
        let offset = header.u64(40), entrySize = UInt64(header.u16(58))
        var count = UInt64(header.u16(60))
        guard offset != 0 else {
            throw error("the section header table", expected: "an offset in the file", found: "none (offset 0)")
        }
        if count > 0 || entrySize != 0 {
            guard entrySize == Self.sectionHeaderSize else {
                throw error("the section header table", expected: "64-byte entries", found: "\(entrySize)-byte entries")
            }
        }
        if count == 0 {
            // More than 0xff00 sections: the real count is section 0's sh_size.
            let first = try read(at: offset, count: Self.sectionHeaderSize, what: "section header 0")
            count = first.u64(32)
        }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: Self.sectionHeaderSize)
        guard !overflow else {
            throw error("the section header table", expected: "at most \(size / Self.sectionHeaderSize) sections",
                        found: "\(count)")
        }
        let table = try read(at: offset, count: bytes, what: "the section header table (\(count) sections at offset \(offset))")
        return (0..<Int(count)).map { index in
            let base = index * Int(Self.sectionHeaderSize)
            return Section(type: table.u32(base + 4), offset: table.u64(base + 24), size: table.u64(base + 32),
                           link: table.u32(base + 40), entrySize: table.u64(base + 56))
        }
    }

    /// The names of the defined functions and objects among `symbols`, looked up in `strings`.
    private func names(table: String, symbols: [UInt8], strings: [UInt8]) throws(ELFSymbolsError) -> ELFSymbols {
        var functions: [String] = [], objects: [String] = []
        // Names may share bytes (a suffix of one is another); this bounds the bytes copied out in total, so
        // a table whose every symbol points at one long string cannot cost quadratic time.
        var budget = 4 * strings.count + (1 << 20)
        let count = symbols.count / Int(Self.symbolSize)
        for index in 0..<count {
            let base = index * Int(Self.symbolSize)
            let kind = symbols[base + 4] & 0xf, sectionIndex = symbols.u16(base + 6)
            guard sectionIndex != 0, kind == Self.symbolTypeFunction || kind == Self.symbolTypeObject else { continue }
            let start = Int(symbols.u32(base))
            guard start < strings.count else {
                throw error("\(table) symbol \(index)", expected: "a name inside the string table (\(strings.count) bytes)",
                            found: "name offset \(start)")
            }
            let limit = min(strings.count, start + budget + 1)
            guard let end = strings[start..<limit].firstIndex(of: 0) else {
                if limit == strings.count {
                    throw error("\(table) symbol \(index)", expected: "a name ending in NUL inside the string table",
                                found: "no NUL from offset \(start) to its end")
                }
                throw error(table, expected: "symbol names totalling at most \(4 * strings.count + (1 << 20)) bytes "
                                + "(4 times the string table, plus 1 MiB)", found: "more by symbol \(index)")
            }
            budget -= end - start
            let name = String(decoding: strings[start..<end], as: UTF8.self)
            if kind == Self.symbolTypeFunction { functions.append(name) } else { objects.append(name) }
        }
        return ELFSymbols(table: table, functions: functions, objects: objects)
    }

    /// `count` bytes at `offset`, after checking they lie inside the file.
    private func read(at offset: UInt64, count: UInt64, what: String) throws(ELFSymbolsError) -> [UInt8] {
        let (end, overflow) = offset.addingReportingOverflow(count)
        guard !overflow, end <= size else {
            throw error(what, expected: "a range within the file's \(size) bytes",
                        found: "\(count) bytes at offset \(offset)" + (overflow ? "" : ", ending at \(end)"))
        }
        var bytes = [UInt8](repeating: 0, count: Int(count))
        let failure: Int32? = bytes.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < buffer.count {
                let got = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
                if got > 0 { done += got; continue }
                if got < 0 && errno == EINTR { continue }
                return got < 0 ? errno : 0  // 0: the file shrank while it was read
            }
            return nil
        }
        if let failure {
            throw error(what, expected: "\(count) readable bytes at offset \(offset)",
                        found: failure == 0 ? "the end of the file (it shrank while read)" : Self.errorText(failure))
        }
        return bytes
    }

    private func error(_ what: String, expected: String, found: String) -> ELFSymbolsError {
        ELFSymbolsError(path: path, what: what, expected: expected, found: found)
    }

    static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}

/// Little-endian fields of an ELF64 structure.
private extension Array where Element == UInt8 {
    func u16(_ offset: Int) -> UInt16 { UInt16(self[offset]) | UInt16(self[offset + 1]) << 8 }
    func u32(_ offset: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(self[offset + $1]) << (8 * $1) } }
    func u64(_ offset: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(self[offset + $1]) << (8 * $1) } }
}
