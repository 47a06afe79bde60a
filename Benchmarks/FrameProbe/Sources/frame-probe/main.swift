import Dispatch
import Foundation
import TimerKit
import TimerKitTesting

// Frame subscriptions' cost per call with 10,000 owner-bound subscribers on one source, under virtual
// time (no real clock runs): reading a state, pause + resume, cancel, and one refresh that delivers to
// every subscriber. Each figure is the median of 5 repetitions.

final class Owner: Sendable {}

let subscribers = 10_000
/// Calls timed per repetition for the per-call figures (spread over the whole population).
let sampled = 1_000

func nanoseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

struct Figures {
    var stateRead: [Double] = []
    var pauseResume: [Double] = []
    var cancel: [Double] = []
    var refresh: [Double] = []
}

var figures = Figures()
let queue = DispatchQueue(label: "frame-probe")
for _ in 0..<5 {
    let time = VirtualTime()
    let owners = (0..<subscribers).map { _ in Owner() }
    let delivered = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    delivered.pointee = 0
    nonisolated(unsafe) let counter = delivered
    let (source, handles) = time.run {
        let source = FrameSource.software(refreshRate: 60, on: .dispatch(queue))
        let handles = owners.map { owner in
            source.subscribe(owner: owner) { _, _ in counter.pointee += 1 }
        }
        return (source, handles)
    }
    let step = subscribers / sampled
    var states = 0
    figures.stateRead.append(
        nanoseconds {
            for index in stride(from: 0, to: subscribers, by: step) where handles[index].state == .running {
                states += 1
            }
        } / Double(sampled))
    guard states == sampled else { fatalError("\(states) of \(sampled) states read running") }
    figures.pauseResume.append(
        nanoseconds {
            for index in stride(from: 0, to: subscribers, by: step) {
                handles[index].pause()
                handles[index].resume()
            }
        } / Double(sampled))
    figures.refresh.append(nanoseconds { time.advance(by: .milliseconds(17)) })
    guard delivered.pointee == subscribers else { fatalError("\(delivered.pointee) deliveries, not \(subscribers)") }
    figures.cancel.append(
        nanoseconds {
            for index in stride(from: step / 2, to: subscribers, by: step) { handles[index].cancel() }
        } / Double(sampled))
    guard source.subscriberCount == subscribers - sampled else { fatalError("\(source.subscriberCount) left") }
    handles.forEach { $0.cancel() }
    withExtendedLifetime(owners) {}  // the owners live through the measurement
    delivered.deallocate()
}

print("frame subscriptions, \(subscribers) owner-bound subscribers on one source (medians of 5):")
print(String(format: "  state read      %10.0f ns/call", median(figures.stateRead)))
print(String(format: "  pause + resume  %10.0f ns/pair", median(figures.pauseResume)))
print(String(format: "  cancel          %10.0f ns/call", median(figures.cancel)))
print(
    String(
        format: "  one refresh     %10.0f ns (%.0f ns per subscriber)", median(figures.refresh),
        median(figures.refresh) / Double(subscribers)))
