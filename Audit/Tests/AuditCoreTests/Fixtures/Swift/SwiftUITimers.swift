// swift-format-ignore-file
// SwiftUI views: no object cycle, but a repeating timer that nothing stops runs for ever
// (swiftui-timer-never-stopped); autoconnect with onReceive, or a timer invalidated in onDisappear, is fine.
import Combine
import SwiftUI

struct StopwatchView: View {
    @State private var seconds = 0

    var body: some View {
        Text("\(seconds)")
            .onAppear {
                Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in seconds += 1 }  // expect: swiftui-timer-never-stopped
            }
    }
}

struct PulseView: View {
    let ticks = Timer.publish(every: 1, on: .main, in: .common)

    var body: some View {
        Circle()
            .onAppear { _ = ticks.connect() }  // expect: swiftui-timer-never-stopped
    }
}

struct ClockView: View {
    @State private var now = Date()
    private let timer = Timer.publish(every: 1, on: .main, in: .common).autoconnect()

    var body: some View {
        Text(now, style: .time).onReceive(timer) { now = $0 }
    }
}

struct BlinkView: View {
    @State private var timer: Timer?
    @State private var visible = true

    var body: some View {
        Text("•")
            .opacity(visible ? 1 : 0)
            .onAppear { timer = Timer.scheduledTimer(withTimeInterval: 0.5, repeats: true) { _ in visible.toggle() } }
            .onDisappear { timer?.invalidate() }
    }
}

// Invalidating the previous timer in onAppear does not stop the one made there when the view goes.
struct TidesView: View {
    @State private var timer: Timer?
    @State private var level = 0.0

    var body: some View {
        Text("\(level)")
            .onAppear {
                timer?.invalidate()
                timer = Timer.scheduledTimer(withTimeInterval: 30, repeats: true) { _ in level += 1 }  // expect: swiftui-timer-never-stopped
            }
    }
}
