import Testing
@testable import SubscriberHost

/// The loader's image table by file identity agrees with a dictionary keyed the same way.
@Suite("Loader: the image table by file identity")
struct FileIdentityTableTests {
    @Test("5,000 identities (consecutive inodes, a few devices, colliding high bits): every lookup agrees with a dictionary")
    func agreesWithDictionary() {
        var table = FileIdentityTable<Int>()
        var dictionary: [FileIdentity: Int] = [:]
        var identities: [FileIdentity] = []
        for device in [UInt64(0), 64_769, 1 << 40] {
            for inode in 0..<UInt64(1_000) { identities.append(FileIdentity(device: device, inode: inode)) }
            for step in 1...UInt64(666) { identities.append(FileIdentity(device: device, inode: step << 32)) }
        }
        for (value, identity) in identities.enumerated() {
            #expect(table[identity] == nil, "\(identity) found before it was added")
            table.insert(value, for: identity)
            dictionary[identity] = value
        }
        #expect(table.values == Array(0..<identities.count), "the values in the order added")
        for identity in identities where table[identity] != dictionary[identity] {
            Issue.record("\(identity): table \(String(describing: table[identity])), dictionary \(String(describing: dictionary[identity]))")
        }
        for inode in UInt64(1_000)..<1_200 {
            let absent = FileIdentity(device: 64_769, inode: inode)
            #expect(table[absent] == nil, "\(absent) was never added")
        }
    }
}
