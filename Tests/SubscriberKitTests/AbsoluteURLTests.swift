import Foundation
import SubscriberABI
import Testing

@testable import SubscriberEventModel
@testable import SubscriberValues

/// A script's URL kept as its text (``AbsoluteURL``) only when `URL(string:)` certainly accepts it
/// and gives it back unchanged: the byte check held against `URL(string:)` on a generated corpus.
@Suite("Absolute URLs kept as their text")
struct AbsoluteURLTests {
    /// SplitMix64: the same corpus on every run.
    struct Draw {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
    }

    static let schemes = ["news", "https", "http", "file", "mailto", "a", "A1+.-", "HTTP", "x-y", "urn", "data",
                          "1abc", "", "ht tp", "é", "h_t", "+a"]
    static let separators = ["://", ":", ":/", ":///", "//", "", ":\\\\", ":// "]
    static let hosts = ["example.com", "EXAMPLE.com", "news.example.com", "a", "", "a_b", "~x", "a..b", "-", ".",
                        "host.", "xn--bcher-kva.example", "bücher.de", "[::1]", "[v1.x]", "127.0.0.1", "a b",
                        "user@host", "u:p@h", "%41", "a%2", "a!b", "a$b", "a*b", "a,b", "a;b", "a=b", "a'b", "a(b)",
                        "A-Z.0-9", "\u{0}", "a\tb", "a<b", "a{b}", "😀"]
    static let ports = ["", ":", ":80", ":0", ":8080", ":65535", ":65536", ":99999", ":000080", ":1a", ":-1", ":123456",
                        "::80"]
    static let paths = ["", "/", "/a/b", "/article/7", "/a b", "/%20", "/%2", "/%zz", "/%C3%A9", "/%c3%a9", "/é",
                        "/[x]", "/a|b", "/a\\b", "/\"", "/<>", "/{}", "/^`", "//x", "/./..", "/a;b=c",
                        "/!$&'()*+,=:@", "a/b", "article", ":x", "@x", "/~_-.", "/%", "/%%41", "/\u{7F}", "/\t"]
    static let queries = ["", "?", "?a=b&c=d", "?a b", "?%", "?x?y/z", "?[]", "?%41", "?a=é", "?campaign=7", "?#"]
    static let fragments = ["", "#", "#f", "#a#b", "#%41", "#é", "# ", "#a?b/c", "#[x]"]

    /// The corpus: every piece combined at random, the script's own shapes, and those with one
    /// character put in, replaced or taken out.
    static func corpus() -> [String] {
        var draw = Draw(state: 24)
        var texts: [String] = []
        for _ in 0..<4_000 {
            texts.append(draw.pick(schemes) + draw.pick(separators) + draw.pick(hosts) + draw.pick(ports)
                         + draw.pick(paths) + draw.pick(queries) + draw.pick(fragments))
        }
        let shapes = ["news://article/7", "https://elsewhere.example.org/page/12", "https://news.example.com/article/42",
                      "https://news.example.com/article/42?campaign=7", "news://a", "app://home", "mailto:a@b.example",
                      "urn:isbn:0451450523", "https://a.example:8443/p?q=1#f"]
        let inserted = Array(" %\"#?/:@[]{}<>|\\^`'~é\u{0}\u{1}\u{7F}0aZ.-_+")
        texts += shapes
        for shape in shapes {
            let characters = Array(shape)
            for position in 0...characters.count {
                for character in inserted {
                    var put = characters
                    put.insert(character, at: position)
                    texts.append(String(put))
                    if position < characters.count {
                        var replaced = characters
                        replaced[position] = character
                        texts.append(String(replaced))
                    }
                }
                if position < characters.count {
                    var dropped = characters
                    dropped.remove(at: position)
                    texts.append(String(dropped))
                }
            }
        }
        return texts
    }

    static func isCertain(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { AbsoluteURL.isCertainlyAbsoluteURL(UnsafeRawBufferPointer($0)) }
    }

    @Test("the byte check never accepts a text URL(string:) refuses, finds no scheme in, or gives back changed")
    func neverAcceptsWhatURLRefusesOrChanges() {
        let texts = Self.corpus()
        var accepted = 0
        for text in texts where Self.isCertain(text) {
            accepted += 1
            let url = URL(string: text)
            #expect(url != nil && url?.scheme != nil, "accepted \(text.debugDescription), which URL(string:) refuses")
            #expect(url?.absoluteString == text && url?.relativeString == text && url?.baseURL == nil,
                    "accepted \(text.debugDescription), which URL(string:) gives back as \(url?.absoluteString ?? "nil")")
        }
        // The corpus tells both ways: thousands of texts, many of them kept (the script's shapes among them).
        #expect(texts.count > 5_000)
        #expect(accepted > 500 && accepted < texts.count / 2, "\(accepted) of \(texts.count)")
        for shape in ["news://article/7", "https://elsewhere.example.org/page/12", "https://news.example.com/article/42"] {
            #expect(Self.isCertain(shape), "\(shape)")
        }
    }

    @Test("an AbsoluteURL is the URL URL(string:) makes: the same accepted and refused, the same text, equal and hashed alike")
    func sameAsURLString() {
        for text in Self.corpus() {
            let parsed = URL(string: text).flatMap { $0.scheme == nil ? nil : $0 }
            let absolute = AbsoluteURL(text)
            #expect((absolute == nil) == (parsed == nil), "\(text.debugDescription)")
            guard let absolute, let parsed else { continue }
            #expect(absolute.isKeptAsText == Self.isCertain(text))
            #expect(absolute.absoluteString == parsed.absoluteString, "\(text.debugDescription)")
            #expect(absolute.url == parsed, "\(text.debugDescription)")
            #expect(absolute == AbsoluteURL(parsed) && AbsoluteURL(parsed) == absolute, "\(text.debugDescription)")
            #expect(absolute.hashValue == AbsoluteURL(parsed).hashValue, "\(text.debugDescription)")
            #expect(AbsoluteURL(bytes: ArraySlice(text.utf8)) == absolute)
            let value = OpenURLArguments.Value(absoluteURL: absolute, options: OpenURLOptions())
            #expect(value == OpenURLArguments.Value(url: parsed, options: OpenURLOptions()))
            #expect(OpenURLArguments.summary(value) == parsed.absoluteString)
        }
    }

    @Test("a C payload's URL is read as URL(string:) reads it, the scheme told from the text's bytes where it starts with one")
    func payloadURLAsURLString() {
        var toldByBytes = 0
        for text in Self.corpus() + ["a:", "a1:b", "ab", ":a", "1:a", "a/b:c", "a?b:c", "a#:b", "A+-.:x", "http:", "é:x"] {
            let parsed = URL(string: text).flatMap { $0.scheme == nil ? nil : $0 }
            #expect(ABI.absoluteURL(text) == parsed, "\(text.debugDescription)")
            var bytes = text
            guard bytes.withUTF8({ ABI.startsWithScheme($0) }) else { continue }
            toldByBytes += 1
            // Whatever URL(string:) accepts of such a text has a scheme: the check it saves.
            if let url = URL(string: text) { #expect(url.scheme != nil, "\(text.debugDescription)") }
        }
        #expect(toldByBytes > 1_000)
        var problems: [String] = []
        for text in ["news://article/7", "article/7", "1abc://x", "ht tp://x"] {
            let decoded = withABIString(text) { url in
                OpenURLArguments.decode(adh_open_url(struct_size: UInt32(MemoryLayout<adh_open_url>.size), serial: 1, url: url,
                                                     source_application: .absent, annotation_json: .absent,
                                                     open_in_place: adh_tristate(ADH_NO_OPINION), event_attribution_json: .absent),
                                        what: "openURL", problems: &problems)
            }
            #expect(decoded?.url == URL(string: text).flatMap { $0.scheme == nil ? nil : $0 }, "\(text)")
        }
        #expect(problems.count == 3, "\(problems)")
    }

    @Test("a kept URL's text is what the C payload and the script line carry")
    func keptTextCarried() throws {
        let absolute = try #require(AbsoluteURL("news://article/7?x=%41#f"))
        #expect(absolute.isKeptAsText)
        let value = OpenURLArguments.Value(absoluteURL: absolute, options: OpenURLOptions(sourceApplication: "s"))
        let encoded = OpenURLArguments.encode(value, EncodingContext(serial: 1, application: Application(infoJSON: [:])))
        #expect(encoded.pointer.pointee.url.string == "news://article/7?x=%41#f")
        var object = JSONObject()
        OpenURLArguments.write(value, spec: (), into: &object)
        #expect(object["url"] == .string("news://article/7?x=%41#f"))
        var problems: [String] = []
        let decoded = OpenURLArguments.decode(encoded.pointer.pointee, what: "openURL", problems: &problems)
        #expect(decoded == value && problems.isEmpty)
    }

    @Test("a kept URL's URL is made the first time it is asked for, once, and its copies share it")
    func keptURLMadeOnce() throws {
        let absolute = try #require(AbsoluteURL("https://news.example.com/article/7"))
        let copy = absolute
        #expect(absolute.isKeptAsText && !absolute.hasMadeURL && !copy.hasMadeURL)
        let value = OpenURLArguments.Value(absoluteURL: absolute, options: OpenURLOptions())
        #expect(value.url == URL(string: "https://news.example.com/article/7"))
        // Every reader of the event's value (each in-process subscriber, a URL hook) gets the one URL made.
        #expect(absolute.hasMadeURL && copy.hasMadeURL)
        #expect(copy.url == value.url && copy.absoluteString == "https://news.example.com/article/7")
    }
}
