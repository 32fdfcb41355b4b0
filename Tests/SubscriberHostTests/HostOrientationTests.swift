import Testing
import SubscriberKit
@testable import SubscriberHost

/// What a host made from a manifest with `orientations` (a JSON object's text, or nil for none) and no
/// plugins delivers for `supportedInterfaceOrientations` of each idiom, nobody answering.
@MainActor
private func delivered(_ orientations: String?) throws -> [UserInterfaceIdiom: InterfaceOrientationMask] {
    let manifest = try parseManifest(withApp(orientations.map { #""supportedInterfaceOrientations": \#($0)"# } ?? ""))
    let host = try PluginHost(manifest: manifest)
    host.launch()
    return Dictionary(uniqueKeysWithValues: UserInterfaceIdiom.allCases.map {
        ($0, host.dispatcher.dispatchAtOnce(.supportedInterfaceOrientations(idiom: $0)).result)
    })
}

@MainActor
@Suite("Host: default orientations the Info.plist way (an idiom's entry, else phone's, else UIKit's)")
struct HostOrientationTests {
    @Test("no entries: UIKit's defaults, all but upside down, all on a pad")
    func unlisted() throws {
        let masks = try delivered(nil)
        #expect(masks[.phone] == .allButUpsideDown)
        #expect(masks[.pad] == .all)
        for idiom in [UserInterfaceIdiom.unspecified, .tv, .carPlay, .mac, .vision] {
            #expect(masks[idiom] == .allButUpsideDown, "\(idiom)")
        }
    }

    @Test("a phone-only manifest: the plain key applies to every idiom, pad and tv included")
    func phoneOnly() throws {
        let masks = try delivered(#"{"phone": ["portrait"]}"#)
        for idiom in UserInterfaceIdiom.allCases {
            #expect(masks[idiom] == .portrait, "\(idiom)")
        }
    }

    @Test("~ipad overrides for pad only; an idiom's own entry wins over phone's")
    func overrides() throws {
        let masks = try delivered(#"{"~iphone": ["portrait"], "~ipad": ["landscapeLeft"], "tv": ["landscapeRight"]}"#)
        #expect(masks[.phone] == .portrait)
        #expect(masks[.pad] == .landscapeLeft)
        #expect(masks[.tv] == .landscapeRight)
        #expect(masks[.mac] == .portrait)
    }

    @Test("a pad-only manifest: other idioms keep UIKit's phone default")
    func padOnly() throws {
        let masks = try delivered(#"{"pad": ["portrait"]}"#)
        #expect(masks[.pad] == .portrait)
        #expect(masks[.phone] == .allButUpsideDown)
        #expect(masks[.tv] == .allButUpsideDown)
    }
}
