import Testing
@testable import SubscriberKit
@testable import SubscriberEventModel

/// Subscriber types named by default, as plain, nested, generic and base-class subscribers.
private final class PlainDefault: InstantiableSubscriber {
    init(context: SubscriberContext) {}
}

private enum Namespace {
    final class NestedDefault: InstantiableSubscriber {
        init(context: SubscriberContext) {}
    }
}

private final class GenericDefault<Tag>: InstantiableSubscriber {
    init(context: SubscriberContext) {}
}

private final class BaseDefault: AppDelegateSubscriberBase, InstantiableSubscriber {}

@MainActor
@Suite("Subscriber names: the default is the type's name, as String(describing:) prints it")
struct SubscriberNameTests {
    @Test func theDefaultNameIsWhatStringDescribingPrints() {
        #expect(PlainDefault.subscriberName == "PlainDefault")
        #expect(Namespace.NestedDefault.subscriberName == String(describing: Namespace.NestedDefault.self))
        #expect(GenericDefault<Int>.subscriberName == String(describing: GenericDefault<Int>.self))
        #expect(GenericDefault<Int>.subscriberName == "GenericDefault<Int>")
        #expect(BaseDefault.subscriberName == "BaseDefault")
    }
}
