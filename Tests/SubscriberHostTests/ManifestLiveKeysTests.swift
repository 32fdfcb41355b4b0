import Testing
@testable import SubscriberHost

/// The manifest's keys for the live host (`apphost run`): `terminationDeadline`.
@Suite("Manifest: the live host's keys")
struct ManifestLiveKeysTests {
    @Test("terminationDeadline: milliseconds, absent by default")
    func terminationDeadline() throws {
        #expect(try parseManifest(withApp()).terminationDeadline == nil)
        #expect(try parseManifest(withApp(#""terminationDeadline": 1500"#)).terminationDeadline == 1500)
        #expect(try parseManifest(withApp(#""terminationDeadline": 600000"#)).terminationDeadline == 600_000)
        #expect(try parseManifest(withApp(#""terminationDeadline": 1"#)).terminationDeadline == 1)
    }

    @Test("terminationDeadline out of bounds or not a whole number: one line naming the key, expected and found",
          arguments: [(#"0"#, "the number 0"), (#"600001"#, "the number 600001"), (#"-5"#, "the number -5"),
                      (#"2.5"#, "the number 2.5"), (#""5s""#, #"the string "5s""#)])
    func badTerminationDeadline(_ value: String, _ found: String) {
        #expect(manifestError(withApp(#""terminationDeadline": \#(value)"#))
                == "m.json: terminationDeadline: expected a whole number of milliseconds from 1 to 600000, found \(found)")
    }

    @Test("sceneBased: a Boolean, false by default")
    func sceneBased() throws {
        #expect(try parseManifest(withApp()).sceneBased == false)
        #expect(try parseManifest(withApp(#""sceneBased": true"#)).sceneBased == true)
        #expect(manifestError(withApp(#""sceneBased": "yes""#)) == #"m.json: sceneBased: expected true or false, found the string "yes""#)
    }
}
