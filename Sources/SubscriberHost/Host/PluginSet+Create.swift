import SubscriberDelivery
import SubscriberKit

extension PluginSet.Plugin {
    /// Makes this entry's subscribers through the plugin's `create`, in ``subscriberNames`` order,
    /// each with a context from `sink` carrying `application` and its options (the entry's `options`
    /// with its own `subscriberOptions` laid over them, ``ManifestPlugin/options(for:)``). All or
    /// none: when one cannot be made, the ones already made from this entry are destroyed and
    /// ``PluginLoadError/createFailed(path:name:reason:)`` (or, for a struct it cannot read,
    /// ``PluginLoadError/unreadableStruct(path:name:source:expected:found:)``) names it.
    /// [main-thread] `create` is a `[main-thread]` entry.
    @MainActor
    package func makeSubscribers(application: Application, sink: some SubscriberLogSink,
                                 state: ApplicationStateCell = ApplicationStateCell()) throws(PluginLoadError) -> [CSubscriber]
    {
        var made: [CSubscriber] = []
        for name in subscriberNames {
            let context = sink.context(for: name, application: application, options: entry.options(for: name))
            do {
                made.append(try CSubscriber(creating: name, from: image.descriptor, context: context, state: state))
            } catch {
                made.forEach { $0.destroy() }
                if case .unreadableStruct(let source, let expected, let found) = error {
                    throw .unreadableStruct(path: path, name: name, source: source, expected: expected, found: found)
                }
                throw .createFailed(path: path, name: name, reason: error.description)
            }
        }
        return made
    }
}
