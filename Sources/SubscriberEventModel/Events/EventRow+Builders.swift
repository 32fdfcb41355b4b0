import SubscriberABI
import SubscriberValues

// The builders of event rows, one per answer timing. Each is generic over the event's family vtable
// `V`, its argument shape `A`, its answer shape `R` and its C entry's type `Fn`; called from a
// table with concrete types, it is specialized, and so are the closures it keeps in the row. The
// code that calls each responder and holds its answers is the host's alone: the delivery engine
// compiles it per timing and shapes (SubscriberDelivery/CallPaths.swift) around the row's C call
// (`entryCall`), so a plugin image, which builds rows too, carries none of it.
//
// What a table row gives besides facts: `read` (its entry in the family's vtable), `install` (the
// SDK's C function for it, written where the table names the event and shapes, because a C
// function cannot capture them) and `call` (how to call an entry of its C type with the shapes' C
// forms).
extension EventRow {
    typealias Me = UnsafePointer<adh_subscriber>
    typealias Swift = (protocol: String, requirement: String)

    // MARK: Notifications

    static func notification<V, A: ArgumentShape, Fn>(
        _ name: String, family: TypedEventFamily<V>, uikit: String, swift: Swift, state: StateRule = .running,
        arguments: A.Type, spec: A.Spec, slot: String,
        read: @escaping @Sendable (V) -> Fn?, install: @escaping @Sendable (inout V) -> Void, call: @escaping @Sendable (Fn, Me, A.CArguments) -> Void
    ) -> EventRow {
        var operations = common(A.self, spec: spec, read: read, install: install)
        operations.policy = { choice, settings throws(ReconcilerMismatch) in
            if let choice { throw .expecting([], found: choice) }
            return TypedPolicy<A.Value, Void>(reconciler: DoneAnswer.everyoneDone, shown: nil, nobody: .constant(()),
                                              settings: settings, late: nil)
        }
        operations.answerJSON = { _ in .null }
        operations.finalJSON = { _ in .null }
        operations.appendAnswerJSON = { _, bytes in JSONText.append("null", to: &bytes) }
        operations.appendFinalJSON = { _, bytes in JSONText.append("null", to: &bytes) }
        operations.fits = { $0 is NotificationHandler<A> }
        operations.erasedHandler = { event, body in
            NotificationHandler<A> { object, application, value in
                _ = body(ErasedInvocation(subscriber: object, application: application,
                                          call: AnyEventCall(event, value: value), completion: nil))
            }
        }
        operations.entryCall = EntryCall<A.CArguments, Void>(Fn.self) { call(cast($0), $1, $2) }
        operations.fuzz = { draw, serial in
            let encoded = A.fuzzed(&draw, spec: spec, serial: serial)
            return FuzzedCall { entry, me in withExtendedLifetime(encoded) { call(cast(entry), me, A.cArguments(encoded)) } }
        }
        return EventRow(name: name, family: family, uikit: uikit, swift: swift, state: state, cSlot: slot, timing: .notification,
                        defaultReconciler: nil, fittingReconcilers: [], nobodyAnswers: "nothing", lateCountsAs: nil,
                        argumentType: A.self, answerType: NoAnswer.self, operations: operations)
    }

    // MARK: Answers at once

    static func immediate<V, A: ArgumentShape, R: ImmediateAnswerShape, Fn>(
        _ name: String, family: TypedEventFamily<V>, uikit: String, swift: Swift, state: StateRule = .running,
        arguments: A.Type, spec: A.Spec, answer: R.Type, reconciler: ReconcilerChoice, nobody: Nobody<A.Value, R.Answer>,
        slot: String, read: @escaping @Sendable (V) -> Fn?, install: @escaping @Sendable (inout V) -> Void,
        call: @escaping @Sendable (Fn, Me, A.CArguments) -> R.CReturn
    ) -> EventRow {
        var operations = common(A.self, spec: spec, read: read, install: install)
        operations.policy = policy(R.self, standard: reconciler, nobody: nobody, late: nil)
        writeJSON(R.self, into: &operations)
        operations.fits = { $0 is ImmediateHandler<A, R> }
        operations.erasedHandler = { event, body in
            ImmediateHandler<A, R> { object, application, value in
                body(ErasedInvocation(subscriber: object, application: application, call: AnyEventCall(event, value: value),
                                      completion: nil)).map { $0 as! R.Answer }
            }
        }
        operations.entryCall = EntryCall<A.CArguments, R.CReturn>(Fn.self) { call(cast($0), $1, $2) }
        operations.fuzz = { draw, serial in
            let encoded = A.fuzzed(&draw, spec: spec, serial: serial)
            return FuzzedCall { entry, me in withExtendedLifetime(encoded) { _ = call(cast(entry), me, A.cArguments(encoded)) } }
        }
        return EventRow(name: name, family: family, uikit: uikit, swift: swift, state: state, cSlot: slot, timing: .immediate,
                        defaultReconciler: reconciler, fittingReconcilers: R.fittingReconcilers,
                        nobodyAnswers: describe(nobody, R.json(answer:)), lateCountsAs: nil,
                        argumentType: A.self, answerType: R.self, operations: operations)
    }

    // MARK: Answers through completions

    /// `reconciler` nil: the event combines nothing (done when every responder is done).
    static func completion<V, A: ArgumentShape, R: CompletionAnswerShape, Fn>(
        _ name: String, family: TypedEventFamily<V>, uikit: String, swift: Swift, state: StateRule = .running,
        arguments: A.Type, spec: A.Spec, answer: R.Type, reconciler: ReconcilerChoice?, nobody: Nobody<A.Value, R.Answer>,
        late: R.Answer?, slot: String, read: @escaping @Sendable (V) -> Fn?, install: @escaping @Sendable (inout V) -> Void,
        call: @escaping @Sendable (Fn, Me, A.CArguments, R.CCompletion) -> adh_response
    ) -> EventRow {
        var operations = common(A.self, spec: spec, read: read, install: install)
        operations.policy = policy(R.self, standard: reconciler, nobody: nobody, late: late)
        writeJSON(R.self, into: &operations)
        operations.fits = { $0 is CompletionEventHandler<A, R> }
        operations.erasedHandler = { event, body in
            CompletionEventHandler<A, R> { object, application, value, completion in
                _ = body(ErasedInvocation(subscriber: object, application: application, call: AnyEventCall(event, value: value),
                                          completion: ErasedCompletion(completion)))
            }
        }
        operations.entryCall = EntryCall<(A.CArguments, R.CCompletion), adh_response>(Fn.self) { call(cast($0), $1, $2.0, $2.1) }
        operations.fuzz = { draw, serial in
            let encoded = A.fuzzed(&draw, spec: spec, serial: serial)
            return FuzzedCall { entry, me in
                withExtendedLifetime(encoded) { _ = call(cast(entry), me, A.cArguments(encoded), R.ignoringCompletion) }
            }
        }
        return EventRow(name: name, family: family, uikit: uikit, swift: swift, state: state, cSlot: slot, timing: .completion,
                        defaultReconciler: reconciler, fittingReconcilers: R.fittingReconcilers,
                        nobodyAnswers: describe(nobody, R.json(answer:)),
                        lateCountsAs: late.map { R.json(answer: $0).serialized() } ?? "nothing",
                        argumentType: A.self, answerType: R.self, operations: operations)
    }

    // MARK: An answer at once, then an optional handler

    static func restoration<V, A: ArgumentShape, Fn>(
        _ name: String, family: TypedEventFamily<V>, uikit: String, swift: Swift, state: StateRule = .running,
        arguments: A.Type, spec: A.Spec, reconciler: ReconcilerChoice, nobody: Nobody<A.Value, Bool>,
        slot: String, read: @escaping @Sendable (V) -> Fn?, install: @escaping @Sendable (inout V) -> Void,
        call: @escaping @Sendable (Fn, Me, A.CArguments, adh_json_completion) -> adh_tristate
    ) -> EventRow {
        typealias R = RestorationAnswer
        var operations = common(A.self, spec: spec, read: read, install: install)
        operations.policy = policy(R.self, standard: reconciler, nobody: nobody, late: nil)
        operations.answerJSON = { answer in
            // A row: whether it handled, and its list when it called the handler.
            guard let row = answer as? ContinueUserActivityResult else { return R.json(answer: answer as! Bool) }
            return R.json(final: row)
        }
        operations.finalJSON = { R.json(final: $0 as! R.Final) }
        operations.appendAnswerJSON = { answer, bytes in
            guard let row = answer as? ContinueUserActivityResult else { return R.appendJSON(answer: answer as! Bool, to: &bytes) }
            R.appendJSON(final: row, to: &bytes)
        }
        operations.appendFinalJSON = { R.appendJSON(final: $0 as! R.Final, to: &$1) }
        operations.fits = { $0 is RestorationHandler<A> }
        operations.erasedHandler = { event, body in
            RestorationHandler<A> { object, application, value, completion in
                body(ErasedInvocation(subscriber: object, application: application, call: AnyEventCall(event, value: value),
                                      completion: ErasedCompletion(completion))).map { $0 as! Bool }
            }
        }
        operations.entryCall = EntryCall<(A.CArguments, adh_json_completion), adh_tristate>(Fn.self) { call(cast($0), $1, $2.0, $2.1) }
        operations.fuzz = { draw, serial in
            let encoded = A.fuzzed(&draw, spec: spec, serial: serial)
            return FuzzedCall { entry, me in
                withExtendedLifetime(encoded) { _ = call(cast(entry), me, A.cArguments(encoded), DictionaryAnswer.ignoringCompletion) }
            }
        }
        return EventRow(name: name, family: family, uikit: uikit, swift: swift, state: state, cSlot: slot, timing: .restoration,
                        defaultReconciler: reconciler, fittingReconcilers: R.fittingReconcilers,
                        nobodyAnswers: describe(nobody, R.json(answer:)),
                        lateCountsAs: "nothing, unreported (the restoration handler is optional)",
                        argumentType: A.self, answerType: R.self, operations: operations)
    }

    // MARK: Shared

    /// The operations that depend on the argument shape and the vtable only; the builder of each
    /// timing fills in the rest.
    private static func common<V, A: ArgumentShape, Fn>(
        _: A.Type, spec: A.Spec, read: @escaping @Sendable (V) -> Fn?, install: @escaping @Sendable (inout V) -> Void
    ) -> Operations {
        Operations(
            read: { reader throws(JSONShapeError) in
                // Every call of an event without arguments shares one box: none allocated and freed a call.
                if A.self == NoArguments.self { return ArgumentBox.none }
                return TypedArgumentBox(try A.read(&reader, spec: spec))
            },
            write: { box, object in A.write(value(box, A.self), spec: spec, into: &object) },
            summary: { A.summary(value($0, A.self)) },
            launchInvocation: { A.launchInvocation(of: value($0, A.self)) },
            scene: { A.scene(of: value($0, A.self)) },
            naming: { box, scene in TypedArgumentBox(A.value(value(box, A.self), naming: scene)) },
            canonical: { A.canonical(spec: spec).map { TypedArgumentBox($0) } },
            policy: { _, _ throws(ReconcilerMismatch) in fatalError("set by the timing's builder") },
            answerJSON: { _ in .null },
            finalJSON: { _ in .null },
            appendAnswerJSON: { _, _ in },
            appendFinalJSON: { _, _ in },
            readEntry: { vtable in
                read(ABI.readCovered(vtable.assumingMemoryBound(to: V.self))).map { unsafeBitCast($0, to: UnsafeRawPointer.self) }
            },
            install: { vtable in install(&vtable.assumingMemoryBound(to: V.self).pointee) },
            fits: { _ in false },
            erasedHandler: { _, _ in fatalError("set by the timing's builder") },
            entryCall: EntryCall<Void, Void>(Void.self) { _, _, _ in fatalError("set by the timing's builder") },
            fuzz: { _, _ in fatalError("set by the timing's builder") })
    }

    /// The policy of an answer shape `R`: the chosen reconciler, else `standard` (nil: none to
    /// choose — done when every responder is done).
    /// How a row of answer shape `R` writes its answers and results: as JSON values, and as bytes.
    private static func writeJSON<R: AnswerShape>(_: R.Type, into operations: inout Operations) {
        operations.answerJSON = { R.json(answer: $0 as! R.Answer) }
        operations.finalJSON = { R.json(final: $0 as! R.Final) }
        operations.appendAnswerJSON = { R.appendJSON(answer: $0 as! R.Answer, to: &$1) }
        operations.appendFinalJSON = { R.appendJSON(final: $0 as! R.Final, to: &$1) }
    }

    private static func policy<Value: Sendable, R: AnswerShape>(
        _: R.Type, standard: ReconcilerChoice?, nobody: Nobody<Value, R.Answer>, late: R.Answer?
    ) -> (ReconcilerChoice?, DeliverySettings) throws(ReconcilerMismatch) -> EventPolicy {
        // The table's own choice must fit its answer: a row that names another is a bug of the table,
        // caught the first time the table is read (every test run).
        let standardReconciler: Reconciler<R.Answer>
        if let standard {
            do { standardReconciler = try R.reconciler(standard) } catch {
                fatalError("event table: \(standard) does not fit \(R.self) (\(error.expected))")
            }
        } else {
            standardReconciler = Reconciler(ReconcilerChoice(.named("done"))) { _, _, nobody in Reconciled(result: nobody) }
        }
        return { choice, settings throws(ReconcilerMismatch) in
            let reconciler = try choice.map { (choice) throws(ReconcilerMismatch) in try R.reconciler(choice) } ?? standardReconciler
            return TypedPolicy(reconciler: reconciler, shown: choice ?? standard, nobody: nobody, settings: settings, late: late)
        }
    }

    /// `nobody` in words: its value as JSON, or what it is computed from.
    private static func describe<Value, Answer>(_ nobody: Nobody<Value, Answer>, _ json: (Answer) -> JSONValue) -> String {
        switch nobody {
        case .constant(let answer): json(answer).serialized()
        case .computed(let description, _): description
        }
    }

    /// The typed arguments of `box`. A box always holds its event's shape (calls are made by the
    /// event's constructor or its row's reader); a mismatch is a bug, caught in debug builds.
    @inline(__always)
    private static func value<A: ArgumentShape>(_ box: ArgumentBox, _: A.Type) -> A.Value {
        unsafeDowncast(box, to: TypedArgumentBox<A.Value>.self).value
    }

    /// A raw entry as its C function type.
    @inline(__always)
    private static func cast<Fn>(_ entry: UnsafeRawPointer) -> Fn { unsafeBitCast(entry, to: Fn.self) }
}

// The same builders for shapes that take no per-row facts.
extension EventRow {
    static func notification<V, A: ArgumentShape, Fn>(
        _ name: String, family: TypedEventFamily<V>, uikit: String, swift: Swift, state: StateRule = .running, arguments: A.Type, slot: String,
        read: @escaping @Sendable (V) -> Fn?, install: @escaping @Sendable (inout V) -> Void, call: @escaping @Sendable (Fn, Me, A.CArguments) -> Void
    ) -> EventRow where A.Spec == Void {
        notification(name, family: family, uikit: uikit, swift: swift, state: state, arguments: A.self, spec: (), slot: slot,
                     read: read, install: install, call: call)
    }

    static func immediate<V, A: ArgumentShape, R: ImmediateAnswerShape, Fn>(
        _ name: String, family: TypedEventFamily<V>, uikit: String, swift: Swift, state: StateRule = .running, arguments: A.Type,
        answer: R.Type, reconciler: ReconcilerChoice, nobody: Nobody<A.Value, R.Answer>, slot: String,
        read: @escaping @Sendable (V) -> Fn?, install: @escaping @Sendable (inout V) -> Void, call: @escaping @Sendable (Fn, Me, A.CArguments) -> R.CReturn
    ) -> EventRow where A.Spec == Void {
        immediate(name, family: family, uikit: uikit, swift: swift, state: state, arguments: A.self, spec: (), answer: R.self,
                  reconciler: reconciler, nobody: nobody, slot: slot, read: read, install: install, call: call)
    }

    static func completion<V, A: ArgumentShape, R: CompletionAnswerShape, Fn>(
        _ name: String, family: TypedEventFamily<V>, uikit: String, swift: Swift, state: StateRule = .running, arguments: A.Type,
        answer: R.Type, reconciler: ReconcilerChoice?, nobody: Nobody<A.Value, R.Answer>, late: R.Answer?, slot: String,
        read: @escaping @Sendable (V) -> Fn?, install: @escaping @Sendable (inout V) -> Void,
        call: @escaping @Sendable (Fn, Me, A.CArguments, R.CCompletion) -> adh_response
    ) -> EventRow where A.Spec == Void {
        completion(name, family: family, uikit: uikit, swift: swift, state: state, arguments: A.self, spec: (), answer: R.self,
                   reconciler: reconciler, nobody: nobody, late: late, slot: slot, read: read, install: install, call: call)
    }

    static func restoration<V, A: ArgumentShape, Fn>(
        _ name: String, family: TypedEventFamily<V>, uikit: String, swift: Swift, state: StateRule = .running, arguments: A.Type,
        reconciler: ReconcilerChoice, nobody: Nobody<A.Value, Bool>, slot: String,
        read: @escaping @Sendable (V) -> Fn?, install: @escaping @Sendable (inout V) -> Void,
        call: @escaping @Sendable (Fn, Me, A.CArguments, adh_json_completion) -> adh_tristate
    ) -> EventRow where A.Spec == Void {
        restoration(name, family: family, uikit: uikit, swift: swift, state: state, arguments: A.self, spec: (), reconciler: reconciler,
                    nobody: nobody, slot: slot, read: read, install: install, call: call)
    }
}
