import SubscriberKit
import SubscriberEventModel

extension Stats {
    /// {"median", "min", "max", "samples"}.
    var json: JSONValue {
        ["median": .number(median), "min": .number(min), "max": .number(max), "samples": .array(samples.map { .number($0) })]
    }
}

extension BenchResults {
    /// The same data as ``text``, as one JSON object.
    var json: JSONValue {
        let dispatchRows: [JSONValue] = dispatch.map { figure in
            let count = Double(figure.subscribers)
            return ["event": .string(figure.scenario.rawValue), "label": .string(figure.scenario.label),
                    "subscribers": .number(count),
                    "inProcessNanosecondsPerEvent": figure.inProcess.json, "loadedNanosecondsPerEvent": figure.loaded.json,
                    "ratioLoadedToInProcess": figure.ratio.json,
                    "inProcessNanosecondsPerSubscriber": .number(figure.inProcess.median / count),
                    "loadedNanosecondsPerSubscriber": .number(figure.loaded.median / count)]
        }
        let loadRows: [JSONValue] = load.map { figure in
            var row: JSONObject = ["plugins": .number(Double(figure.plugins))]
            for variant in LoadVariant.allCases {
                row[variant.rawValue + "Milliseconds"] = figure.milliseconds[variant]!.json
            }
            row["ratioPinsOffToBare"] = figure.ratioToBare(.pinsOff).json
            row["ratioPinsOnToBare"] = figure.ratioToBare(.pinsOn).json
            row["ratioPinsOffToCreate"] = ratio(figure.milliseconds[.pinsOff]!, figure.milliseconds[.create]!).json
            return .object(row)
        }
        let memoryRows: [JSONValue] = load.map { figure in
            var row: JSONObject = ["plugins": .number(Double(figure.plugins))]
            for variant in LoadVariant.allCases {
                row[variant.rawValue + "KilobytesPerPlugin"] = figure.kilobytesPerPlugin[variant]!.json
            }
            for (prefix, column) in [("c", figure.cKilobytesPerPlugin), ("shared", figure.sharedKilobytesPerPlugin)] {
                for (variant, stats) in column {
                    row[prefix + variant.rawValue.prefix(1).uppercased() + variant.rawValue.dropFirst() + "KilobytesPerPlugin"] = stats.json
                }
            }
            return .object(row)
        }
        // Which plugin the shared* memory columns measured, or why they are absent.
        let sharedSDKRow: JSONValue = sharedSDKPlugin.map { plugin in
            plugin.path != nil ? ["measured": .bool(true), "plugin": .string(SharedSDKPlugin.howBuilt)]
                : ["measured": .bool(false), "reason": .string(plugin.failure ?? "")]
        } ?? .null
        func optional(_ value: Double?) -> JSONValue { value.map { .number($0) } ?? .null }
        let ratioRows: [JSONValue] = self.ratioRows.map { row in
            ["event": .string(row.scenario.rawValue), "label": .string(row.scenario.label),
             "at": .number(Double(row.at)), "from": .number(Double(row.from)), "to": .number(Double(row.to)),
             "instructionsAt": optional(row.instructionsAt), "wallAt": .number(row.wallAt),
             "instructionsPerExtra": optional(row.instructionsPerExtra), "wallPerExtra": .number(row.wallPerExtra),
             "inProcessInstructionsPerExtraSubscriber": optional(row.instructionsExtra?.inProcess),
             "loadedInstructionsPerExtraSubscriber": optional(row.instructionsExtra?.loaded),
             "inProcessNanosecondsPerExtraSubscriber": .number(row.wallExtra.inProcess),
             "loadedNanosecondsPerExtraSubscriber": .number(row.wallExtra.loaded)]
        }
        let limitRows: [JSONValue] = limits.map { limit in
            ["limit": .string(limit.kind.rawValue), "label": .string(limit.kind.label), "count": .number(Double(limit.count)),
             "unit": .string(limit.kind.unit), "nanoseconds": limit.nanoseconds.json,
             "instructions": optional(limit.instructions), "floorFor": .string(limit.kind.floorFor)]
        }
        let instructionRows: [JSONValue] = instructions.map { figure in
            ["event": .string(figure.scenario.rawValue), "subscribers": .number(Double(figure.subscribers)),
             "inProcessInstructionsPerEvent": .number(figure.inProcess), "loadedInstructionsPerEvent": .number(figure.loaded)]
        }
        let growthRows: [JSONValue] = growth.map { series in
            ["series": .string(series.series), "unit": .string(series.unit),
             "perUnit": .array(series.perUnit.map { ["n": .number(Double($0.count)), "value": .number($0.value)] }),
             "exponents": .array(series.exponents.map {
                 ["from": .number(Double($0.from)), "to": .number(Double($0.to)), "exponent": .number($0.exponent)]
             }),
             "verdict": .string(series.verdict), "linear": .bool(series.isLinear)]
        }
        let targetRows: [JSONValue] = targets.map { target in
            ["target": .string(target.name), "limit": .string(target.limit), "measured": .string(target.measured),
             "met": target.met.map { .bool($0) } ?? .null]
        }
        let cliRow: JSONValue = cli.map { cli in
            var row: JSONObject = ["events": .number(Double(cli.events)), "mix": .string(cli.mix)]
            for clock in CLIClock.allCases {
                let times = cli.times[clock]!
                row[clock.rawValue] = ["cliEventsPerSecond": times.cliEventsPerSecond.json,
                                       "cliNanosecondsPerEvent": times.cli.json,
                                       "dispatcherEventsPerSecond": times.dispatcherEventsPerSecond.json,
                                       "dispatcherNanosecondsPerEvent": times.dispatcher.json,
                                       "ratioCLIToDispatcher": times.ratio.json,
                                       "cliStartupMilliseconds": times.startupMilliseconds.json]
            }
            row["instructionsPerEvent"] = cli.instructionsPerEvent.map { .number($0) } ?? .null
            row["tour"] = Self.tourJSON(cli)
            return .object(row)
        } ?? .null
        return ["machine": machine.json, "command": .string(command), "repetitions": .number(Double(repetitions)),
                "quick": .bool(quick), "dispatch": .array(dispatchRows), "load": .array(loadRows),
                "memory": .array(memoryRows), "memorySharedSDKPlugin": sharedSDKRow, "cli": cliRow, "live": LiveBench.json(live), "ratios": .array(ratioRows),
                "instructions": .array(instructionRows), "verdictBasis": .string(basis), "growth": .array(growthRows),
                "targets": .array(targetRows), "limits": .array(limitRows + IsolationBench.limitJSON(isolation)),
                "isolation": IsolationBench.json(isolation)]
    }

    /// `cli.tour`: the shipped tour's figures, or `{"measured": false, "reason"}` when it was not played.
    private static func tourJSON(_ cli: CLIFigure) -> JSONValue {
        guard let tour = cli.tour else {
            return ["measured": .bool(false), "reason": .string(cli.tourSkipped ?? "")]
        }
        var row: JSONObject = ["measured": .bool(true), "events": .number(Double(tour.events)), "script": .string(tour.shape),
                               "repeats": .number(Double(TourScript.repeats)),
                               "instructionsPerEvent": tour.instructionsPerEvent.map { .number($0) } ?? .null]
        for clock in CLIClock.allCases {
            let times = tour.times[clock]!
            row[clock.rawValue + "EventsPerSecond"] = times.eventsPerSecond.json
            row[clock.rawValue + "EventsPerSecondAfterStartup"] = times.eventsPerSecondAfterStartup.json
            row[clock.rawValue + "NanosecondsPerEvent"] = times.whole.json
            row[clock.rawValue + "StartupMilliseconds"] = times.startupMilliseconds.json
        }
        return .object(row)
    }
}
