import Testing
import SubscriberABI
@testable import SubscriberHost

#if canImport(Glibc)
import Glibc
#endif

private func malformed(_ rest: String) -> String { #"plugin "/p/libFake.so": malformed descriptor: \#(rest)"# }

@Suite("Loader: hostile descriptor strings")
struct LoaderDescriptorHostileTests {
    @Test("check 8: a string without a NUL within 64 KiB is an error, and the scan stops there")
    func unterminatedString() {
        let fake = FakeDescriptor()
        // Exactly the limit plus one byte, none of them NUL: reading one byte more would leave the buffer.
        let count = DescriptorReader.maximumStringLength + 1
        let unterminated = UnsafeMutablePointer<CChar>.allocate(capacity: count)
        defer { unterminated.deallocate() }
        unterminated.initialize(repeating: 0x61, count: count)
        fake.pointer.pointee.vendor = UnsafePointer(unterminated)
        #expect(fake.error() == malformed("vendor: expected a NUL-terminated string of at most 65536 bytes, "
                                          + "found no NUL within the first 65536 bytes"))
        unterminated[count - 1] = 0
        #expect(fake.error() == nil)
    }

    @Test("check 8: control characters (C0, DEL, C1) are refused, named and escaped")
    func controlCharacters() {
        let fake = FakeDescriptor()
        fake.pointer.pointee.name = fake.text("Gree\u{1B}[31mter")
        #expect(fake.error() == malformed(#"name: expected no control characters, found \e in "Gree\e[31mter""#))
        fake.pointer.pointee.name = fake.text("Fake")
        fake.pointer.pointee.id = fake.text("com.example\n")
        #expect(fake.error() == malformed(#"id: expected no control characters, found \n in "com.example\n""#))
        fake.pointer.pointee.id = fake.text("com.example")
        fake.pointer.pointee.version = fake.text("1.0\u{7F}")
        #expect(fake.error() == malformed(#"version: expected no control characters, found \u{7F} in "1.0\u{7F}""#))
        fake.pointer.pointee.version = fake.text("1.0")
        fake.pointer.pointee.vendor = fake.text("Acme\u{85}")
        #expect(fake.error() == malformed(#"vendor: expected no control characters, found \u{85} in "Acme\u{85}""#))
        fake.pointer.pointee.vendor = fake.text("Acme é")
        fake.setNames([fake.text("One"), fake.text("T\two")])
        #expect(fake.error() == malformed(#"subscriber_names[1]: expected no control characters, found \t in "T\two""#))
        fake.setNames([fake.text("One"), fake.text("Two")])
        #expect(fake.error() == nil)
    }
}
