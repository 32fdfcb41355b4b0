/// Which list of ordering constraints: a subscriber's `after` (the names that go before it) or its
/// `before` (the names that go after it).
package enum OrderConstraint: String, Sendable, Hashable, CustomStringConvertible {
    /// `"after": ["Name"]`: this subscriber is called after each subscriber named.
    case after
    /// `"before": ["Name"]`: this subscriber is called before each subscriber named.
    case before

    /// The key as manifests write it.
    package var description: String { rawValue }
}

/// Why subscribers cannot be put in one order: their `after`/`before` constraints name a
/// subscriber that is not there, are too long, or go round in a circle. Subscribers are named by
/// their position in the list ordered (`index`); ``expected`` and ``found`` say the rest, so a
/// manifest or an embedding app can place the error where the constraint was written.
package enum DispatchOrderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Subscriber `index` has the name of subscriber `first`: a constraint could not tell them apart.
    case duplicateName(index: Int, name: String, first: Int)
    /// Subscriber `index`'s `list` has `count` names, more than ``DispatchOrder/maximumConstraintCount``.
    case tooManyNames(index: Int, list: OrderConstraint, count: Int)
    /// Subscriber `index`'s `list[position]` is `name`, which no subscriber has.
    case unknownName(index: Int, list: OrderConstraint, position: Int, name: String)
    /// The constraints go round in a circle; subscriber `index`'s `list` has the last constraint of it
    /// (in registration order). `cycle` names the subscribers around it in call order, the first
    /// again at the end: `["DeepLinkRouter", "SessionAnalytics", "DeepLinkRouter"]`.
    case cycle(index: Int, list: OrderConstraint, cycle: [String])

    /// The position of the subscriber whose constraint (or name) is at fault.
    package var index: Int {
        switch self {
        case .duplicateName(let index, _, _), .tooManyNames(let index, _, _), .unknownName(let index, _, _, _),
             .cycle(let index, _, _):
            index
        }
    }

    /// Where in that subscriber's entry: `after[2]`, `before`, or `""` for its name.
    package var key: String {
        switch self {
        case .duplicateName: ""
        case .tooManyNames(_, let list, _), .cycle(_, let list, _): list.rawValue
        case .unknownName(_, let list, let position, _): "\(list)[\(position)]"
        }
    }

    /// What a valid order needed there.
    package var expected: String {
        switch self {
        case .duplicateName: "a subscriber name no other subscriber has"
        case .tooManyNames: "at most \(DispatchOrder.maximumConstraintCount) names"
        case .unknownName: "the name of a subscriber of this host"
        case .cycle: "an order without cycles"
        }
    }

    /// What was found instead.
    package var found: String {
        switch self {
        case .duplicateName(_, let name, let first): "\"\(name)\" again (first at subscribers[\(first)])"
        case .tooManyNames(_, _, let count): "\(count)"
        case .unknownName(_, _, _, let name): "\"\(name)\", which no subscriber has"
        case .cycle(_, _, let cycle): cycle.joined(separator: " → ")
        }
    }

    /// One line: `subscribers[2].after: expected an order without cycles, found A → B → A`.
    package var description: String {
        "subscribers[\(index)]\(key.isEmpty ? "" : "." + key): expected \(expected), found \(found)"
    }
}

/// The one place that computes dispatch order: each `after`/`before` constraint is kept, then
/// priority (higher first) breaks ties, then registration order. A topological sort (Kahn's) that
/// always takes, among the subscribers whose constraints are met, the one of highest priority, first
/// registered: without constraints it is exactly the stable sort by priority.
///
/// Cost: O((n + c) log n) for n subscribers and c constraints, each list at most
/// ``maximumConstraintCount`` names, so at most linear in n times a constant.
package enum DispatchOrder {
    /// The most names one `after` or `before` list may hold.
    package static let maximumConstraintCount = 64

    /// One subscriber as ordering sees it.
    package struct Node {
        package var name: String
        package var priority: Int
        package var after: [String]
        package var before: [String]

        package init(name: String, priority: Int, after: [String] = [], before: [String] = []) {
            self.name = name
            self.priority = priority
            self.after = after
            self.before = before
        }
    }

    /// The positions of `nodes` (in registration order) in dispatch order. A constraint naming a
    /// subscriber that is not among `nodes` is an error when `unknownIsError(node, name)`, else it
    /// constrains nothing (a subscriber added later, or removed, or of a skipped optional plugin).
    package static func order(_ nodes: [Node], unknownIsError: (Int, String) -> Bool = { _, _ in true })
        throws(DispatchOrderError) -> [Int]
    {
        guard nodes.contains(where: { !$0.after.isEmpty || !$0.before.isEmpty }) else {
            return prioritySorted(nodes)
        }
        var position: [String: Int] = [:]
        position.reserveCapacity(nodes.count)
        for (index, node) in nodes.enumerated() {
            if let first = position.updateValue(index, forKey: node.name) {
                throw .duplicateName(index: index, name: node.name, first: first)
            }
        }
        // An edge u → v: u is called before v; `owner` is the subscriber whose list made it.
        var successors = [[Edge]](repeating: [], count: nodes.count)
        var waitingFor = [Int](repeating: 0, count: nodes.count)
        for (index, node) in nodes.enumerated() {
            for list in [OrderConstraint.after, .before] {
                let names = list == .after ? node.after : node.before
                if names.count > maximumConstraintCount {
                    throw .tooManyNames(index: index, list: list, count: names.count)
                }
                for (slot, name) in names.enumerated() {
                    guard let other = position[name] else {
                        if unknownIsError(index, name) {
                            throw .unknownName(index: index, list: list, position: slot, name: name)
                        }
                        continue
                    }
                    let (from, to) = list == .after ? (other, index) : (index, other)
                    successors[from].append(Edge(to: to, owner: index, list: list))
                    waitingFor[to] += 1
                }
            }
        }
        var ready = Heap(nodes)
        for index in nodes.indices where waitingFor[index] == 0 { ready.insert(index) }
        var order: [Int] = []
        order.reserveCapacity(nodes.count)
        while let next = ready.popFirst() {
            order.append(next)
            for edge in successors[next] {
                waitingFor[edge.to] -= 1
                if waitingFor[edge.to] == 0 { ready.insert(edge.to) }
            }
        }
        guard order.count < nodes.count else { return order }
        throw cycle(among: waitingFor, successors, nodes)
    }

    /// `nodes` by priority, higher first, stably.
    private static func prioritySorted(_ nodes: [Node]) -> [Int] {
        // Array.sort is not documented as stable; the index breaks ties explicitly.
        nodes.indices.sorted { lhs, rhs in
            nodes[lhs].priority != nodes[rhs].priority ? nodes[lhs].priority > nodes[rhs].priority : lhs < rhs
        }
    }

    private struct Edge {
        var to: Int
        var owner: Int
        var list: OrderConstraint
    }

    /// The error for one cycle among the nodes the sort could not place (those still waiting): each
    /// of them waits for another of them, so walking back from any of them goes round a cycle. Linear.
    private static func cycle(among waitingFor: [Int], _ successors: [[Edge]], _ nodes: [Node]) -> DispatchOrderError {
        // Each unplaced node's predecessors among the unplaced ones, with the edge's owner.
        var predecessors = [[(from: Int, edge: Edge)]](repeating: [], count: nodes.count)
        for (from, edges) in successors.enumerated() where waitingFor[from] > 0 {
            for edge in edges where waitingFor[edge.to] > 0 { predecessors[edge.to].append((from, edge)) }
        }
        var step = [Int](repeating: -1, count: nodes.count)
        var walk: [(node: Int, edge: Edge?)] = []  // each node, and the edge that leads into it
        var node = waitingFor.firstIndex { $0 > 0 }!
        while step[node] < 0 {
            step[node] = walk.count
            walk.append((node, nil))
            let (from, edge) = predecessors[node][0]
            walk[walk.count - 1].edge = edge
            node = from
        }
        // Walked backwards: from step[node] on, each entry's edge comes from the next entry's node.
        let loop = Array(walk[step[node]...])
        // The constraint to blame: the one written last, in registration order.
        let blamed = loop.compactMap(\.edge).max { $0.owner < $1.owner }!
        // In call order, starting at the subscriber whose list is blamed.
        let inCallOrder = loop.reversed().map(\.node)
        let start = inCallOrder.firstIndex(of: blamed.owner) ?? 0
        let names = (inCallOrder[start...] + inCallOrder[..<start]).map { nodes[$0].name }
        return .cycle(index: blamed.owner, list: blamed.list, cycle: names + [names[0]])
    }

    /// A binary min-heap of node positions, first by priority (higher first), then by position.
    private struct Heap {
        private var items: [Int] = []
        private let priorities: [Int]

        init(_ nodes: [Node]) { priorities = nodes.map(\.priority) }

        private func precedes(_ lhs: Int, _ rhs: Int) -> Bool {
            priorities[lhs] != priorities[rhs] ? priorities[lhs] > priorities[rhs] : lhs < rhs
        }

        mutating func insert(_ item: Int) {
            items.append(item)
            var child = items.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard precedes(items[child], items[parent]) else { break }
                items.swapAt(child, parent)
                child = parent
            }
        }

        mutating func popFirst() -> Int? {
            guard let first = items.first else { return nil }
            let last = items.removeLast()
            guard !items.isEmpty else { return first }
            items[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var best = parent
                if left < items.count, precedes(items[left], items[best]) { best = left }
                if right < items.count, precedes(items[right], items[best]) { best = right }
                if best == parent { break }
                items.swapAt(parent, best)
                parent = best
            }
            return first
        }
    }
}
