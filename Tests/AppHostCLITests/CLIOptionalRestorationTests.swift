import Foundation
import Testing
import SubscriberKit
import SubscriberEventModel

/// The faithful port of an Expo subscriber: continueUserActivity returns true and never calls the
/// restoration handler, which UIKit makes optional. An event script with it ends as soon as its
/// events are played, with exit 0: nothing waits for the handler, nothing is reported.
@Suite("apphost: the optional restoration handler stalls nothing", .timeLimit(.minutes(10)))
struct CLIOptionalRestorationTests {
    @Test("NeverRestores: a script ends at once, exit 0, no report; the lists are delivered empty at shutdown",
          arguments: [false, true])
    func scriptEndsWithExitZero(json: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A deadline far past the test's time limit: a run that waited for the handler would be cut off.
        let manifest = try directory.write("m.json", """
            {"app": {"name": "News", "bundleIdentifier": "com.example.news", "version": "1.0"},
             "deadlines": {"continueUserActivity": 90000},
             "plugins": [{"path": "\(AppHostProcess.plugin("NeverRestores"))"}]}
            """)
        let script = """
            {"event": "didFinishLaunching"}
            {"event": "didBecomeActive"}
            {"event": "continueUserActivity", "activityType": "NSUserActivityTypeBrowsingWeb", "webpageURL": "https://news.example.com/article/42"}
            {"event": "willResignActive"}
            {"event": "continueUserActivity", "activityType": "com.example.reading"}

            """
        let run = try AppHostProcess.run(["--manifest", manifest, "--events", "-", "--allow-writable"] + (json ? ["--json"] : []),
                                         stdin: script)
        #expect(run.status == 0, "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        guard json else {
            #expect(run.stdoutLines.last == "5 events played, no reports")
            return
        }
        let objects = try run.stdoutLines.map { try $0.parsedJSON() }
        let continued = objects.filter { $0["event"] == "continueUserActivity" }
        #expect(continued.count == 2)
        for object in continued {
            #expect(object["result"] == ["handled": true, "restorableObjects": []])
            #expect(object["reports"] == [])
        }
        #expect(objects.allSatisfy { $0["reports"] == [] })
    }
}
