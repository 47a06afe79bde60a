import Foundation

/// An SVG chart of the lateness distributions: one row per kind, one panel per condition, log-scale µs.
///
/// Each row is a box plot over every fire of every round: a box from p25 to p75, whiskers from p1 to p99,
/// a diamond at the maximum, and a bar at the median as the report gives it (the median of the rounds'
/// medians), also written at the panel's right edge. A few dozen elements per row keep the file small
/// (the samples themselves are in the JSON).
func latenessChart(_ results: Results) -> String {
    let kinds = TimerKind.reportOrder.filter { kind in results.lateness.contains { $0.kind == kind } }
    let conditions = [false, true].filter { loaded in results.lateness.contains { $0.loaded == loaded } }
    let samples = results.lateness.flatMap(\.microseconds).filter { $0 > 0 }
    guard !kinds.isEmpty, !conditions.isEmpty, let lowest = samples.min(), let highest = samples.max() else {
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"40\"><text x=\"10\" y=\"25\">"
            + "no lateness samples</text></svg>\n"
    }
    let lowDecade = max(0, floor(log10(lowest)))
    let highDecade = max(lowDecade + 1, ceil(log10(highest)))

    let labelWidth = 200.0
    let panelWidth = 440.0
    let medianWidth = 70.0
    let gap = 30.0
    let rowHeight = 40.0
    let top = 100.0
    let plotHeight = rowHeight * Double(kinds.count)
    let width = labelWidth + Double(conditions.count) * (panelWidth + medianWidth + gap) + 10
    let height = top + plotHeight + 110

    func x(_ microseconds: Double, panel: Int) -> Double {
        let left = labelWidth + Double(panel) * (panelWidth + medianWidth + gap)
        let clamped = min(max(microseconds, pow(10, lowDecade)), pow(10, highDecade))
        return left + (log10(clamped) - lowDecade) / (highDecade - lowDecade) * panelWidth
    }
    func color(_ kind: TimerKind) -> String {
        if kind.isTimerKit { return "#1f6fb4" }
        if kind == .nanosleep || kind == .nanosleepPrecise { return "#6b6b6b" }
        return "#e07b10"
    }

    var svg: [String] = []
    svg.append(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" "
            + "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">"
    )
    svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>")
    let rounds = results.options.rounds
    svg.append(
        text(
            "Lateness of one 10 ms repeating timer: TimerKit and the raw primitives", x: 12, y: 28, size: 18,
            weight: "bold"))
    svg.append(
        text(
            "\(results.options.deadlines) deadlines × \(rounds) round\(rounds == 1 ? "" : "s") per row; box "
                + "p25–p75, whiskers p1–p99, diamond: max (over every fire); bar and number: median (of the rounds' "
                + "medians). \(results.host.name), \(results.host.system), \(results.date).", x: 12, y: 50, size: 12,
            fill: "#444"))
    svg.append(
        "<text x=\"16\" y=\"\(f(top + plotHeight / 2))\" font-size=\"12\" fill=\"#222\" text-anchor=\"middle\" "
            + "transform=\"rotate(-90 16 \(f(top + plotHeight / 2)))\">timer</text>")

    for (panel, loaded) in conditions.enumerated() {
        let left = x(pow(10, lowDecade), panel: panel)
        svg.append(
            text(
                loaded ? "with one spinning thread" : "idle", x: left + panelWidth / 2, y: top - 14, size: 14,
                weight: "bold", anchor: "middle"))
        svg.append(
            text("median", x: left + panelWidth + medianWidth - 4, y: top - 14, size: 11, fill: "#444", anchor: "end"))
        // Decade grid with minor lines at 2× and 5×.
        for decade in Int(lowDecade)...Int(highDecade) {
            for multiple in [1.0, 2.0, 5.0] {
                let value = multiple * pow(10, Double(decade))
                guard value <= pow(10, highDecade) else { continue }
                let position = x(value, panel: panel)
                let major = multiple == 1
                svg.append(
                    "<line x1=\"\(f(position))\" y1=\"\(f(top))\" x2=\"\(f(position))\" y2=\"\(f(top + plotHeight))\" "
                        + "stroke=\"\(major ? "#bbb" : "#e6e6e6")\" stroke-width=\"1\"/>")
                if major || decade < Int(highDecade) {
                    svg.append(
                        text(
                            axisLabel(value), x: position, y: top + plotHeight + 16, size: major ? 11 : 9,
                            fill: major ? "#222" : "#888", anchor: "middle"))
                }
            }
        }
        svg.append(
            text(
                "lateness (µs, log scale)", x: left + panelWidth / 2, y: top + plotHeight + 38, size: 12,
                anchor: "middle"))

        for (row, kind) in kinds.enumerated() {
            let center = top + rowHeight * (Double(row) + 0.5)
            let runs = results.lateness.filter { $0.kind == kind && $0.loaded == loaded }
            let values = runs.flatMap(\.microseconds)
            guard !values.isEmpty else { continue }
            let sorted = values.sorted()
            let tint = color(kind)
            let p1 = x(Summary.percentile(sorted, 0.01), panel: panel)
            let p25 = x(Summary.percentile(sorted, 0.25), panel: panel)
            // The median as the report gives it: the median of the rounds' medians.
            let middle = LatenessAggregate(results.lateness, kind: kind, loaded: loaded)?.median ?? .nan
            let p50 = x(middle, panel: panel)
            let p75 = x(Summary.percentile(sorted, 0.75), panel: panel)
            let p99 = x(Summary.percentile(sorted, 0.99), panel: panel)
            svg.append(
                "<line x1=\"\(f(p1))\" y1=\"\(f(center))\" x2=\"\(f(p99))\" y2=\"\(f(center))\" stroke=\"\(tint)\" "
                    + "stroke-width=\"1.5\"/>")
            for end in [p1, p99] {
                svg.append(
                    "<line x1=\"\(f(end))\" y1=\"\(f(center - 6))\" x2=\"\(f(end))\" y2=\"\(f(center + 6))\" "
                        + "stroke=\"\(tint)\" stroke-width=\"1.5\"/>")
            }
            svg.append(
                "<rect x=\"\(f(p25))\" y=\"\(f(center - 9))\" width=\"\(f(max(1, p75 - p25)))\" height=\"18\" "
                    + "fill=\"\(tint)\" fill-opacity=\"0.3\" stroke=\"\(tint)\" stroke-width=\"1.5\"/>")
            svg.append(
                "<line x1=\"\(f(p50))\" y1=\"\(f(center - 12))\" x2=\"\(f(p50))\" y2=\"\(f(center + 12))\" "
                    + "stroke=\"#111\" stroke-width=\"3\"/>")
            svg.append(diamond(x: x(sorted.last ?? .nan, panel: panel), y: center, tint: tint))
            svg.append(
                text(
                    "\(format(middle)) µs", x: left + panelWidth + medianWidth - 4,
                    y: center + 4, size: 12, weight: kind.isTimerKit ? "bold" : "normal", anchor: "end"))
        }
    }

    // Row labels, and a rule between the pairs (each TimerKit context and its raw counterpart).
    for (row, kind) in kinds.enumerated() {
        let center = top + rowHeight * (Double(row) + 0.5)
        svg.append(
            text(
                kind.title, x: labelWidth - 12, y: center + 4, size: 13, weight: kind.isTimerKit ? "bold" : "normal",
                fill: color(kind), anchor: "end"))
        if row > 0, kind.isTimerKit || kind == .nanosleep {
            let y = top + rowHeight * Double(row)
            svg.append(
                "<line x1=\"10\" y1=\"\(f(y))\" x2=\"\(f(width - 10))\" y2=\"\(f(y))\" stroke=\"#999\" "
                    + "stroke-dasharray=\"4 3\"/>")
        }
    }

    // Legend: the colours, then how to read a row.
    let legendY = top + plotHeight + 66
    var legendX = 12.0
    for (label, tint) in [
        ("TimerKit", "#1f6fb4"), ("raw counterpart", "#e07b10"), ("clock_nanosleep floor", "#6b6b6b"),
    ] {
        svg.append(
            "<rect x=\"\(f(legendX))\" y=\"\(f(legendY - 10))\" width=\"22\" height=\"12\" fill=\"\(tint)\" "
                + "fill-opacity=\"0.3\" stroke=\"\(tint)\" stroke-width=\"1.5\"/>")
        svg.append(text(label, x: legendX + 28, y: legendY, size: 12))
        legendX += 40 + Double(label.count) * 7
    }
    // A sample row: whiskers, box, median bar, max diamond, each named.
    let sample = legendX + 20
    let tint = "#6b6b6b"
    svg.append(
        "<line x1=\"\(f(sample))\" y1=\"\(f(legendY - 4))\" x2=\"\(f(sample + 170))\" y2=\"\(f(legendY - 4))\" "
            + "stroke=\"\(tint)\" stroke-width=\"1.5\"/>")
    svg.append(
        "<rect x=\"\(f(sample + 40))\" y=\"\(f(legendY - 13))\" width=\"80\" height=\"18\" fill=\"\(tint)\" "
            + "fill-opacity=\"0.3\" stroke=\"\(tint)\" stroke-width=\"1.5\"/>")
    svg.append(
        "<line x1=\"\(f(sample + 75))\" y1=\"\(f(legendY - 16))\" x2=\"\(f(sample + 75))\" "
            + "y2=\"\(f(legendY + 8))\" stroke=\"#111\" stroke-width=\"3\"/>")
    svg.append(diamond(x: sample + 195, y: legendY - 4, tint: tint))
    for (label, position) in [
        ("p1", 0.0), ("p25", 40.0), ("median", 75.0), ("p75", 120.0), ("p99", 170.0), ("max", 195.0),
    ] {
        svg.append(text(label, x: sample + position, y: legendY + 22, size: 10, fill: "#444", anchor: "middle"))
    }
    svg.append(
        text(
            "Lateness = fire time − (start + k·10 ms), CLOCK_MONOTONIC; values below the axis are drawn at its left "
                + "edge. Every sample: the JSON.", x: 12, y: legendY + 34, size: 11, fill: "#444"))
    svg.append("</svg>")
    return svg.joined(separator: "\n") + "\n"
}

/// A small open diamond (the maximum of a row).
private func diamond(x: Double, y: Double, tint: String) -> String {
    guard x.isFinite else { return "" }
    return "<path d=\"M\(f(x)) \(f(y - 6))L\(f(x + 5)) \(f(y))L\(f(x)) \(f(y + 6))L\(f(x - 5)) \(f(y))Z\" "
        + "fill=\"white\" stroke=\"\(tint)\" stroke-width=\"1.5\"/>"
}

private func axisLabel(_ microseconds: Double) -> String {
    if microseconds >= 1_000_000 { return "\(Int(microseconds / 1_000_000)) s" }
    if microseconds >= 1_000 { return "\(Int(microseconds / 1_000)) ms" }
    return "\(Int(microseconds)) µs"
}

private func f(_ value: Double) -> String {
    String(format: "%.1f", value)
}

private func text(
    _ content: String, x: Double, y: Double, size: Int, weight: String = "normal", fill: String = "#222",
    anchor: String = "start"
) -> String {
    let escaped = content.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;")
    return "<text x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(size)\" font-weight=\"\(weight)\" fill=\"\(fill)\" "
        + "text-anchor=\"\(anchor)\">\(escaped)</text>"
}
