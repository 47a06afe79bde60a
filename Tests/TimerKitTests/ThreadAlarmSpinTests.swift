import Testing

@testable import TimerKit

/// How the precise thread's spin budget reacts to interrupted spins (see PreciseContext.md): halved per
/// interrupted spin down to 5 µs, grown back by about 6 µs per undisturbed one, up to 200 µs.
@Suite struct ThreadAlarmSpinTests {
    @Test func anInterruptedSpinHalvesTheBudgetDownToItsFloor() {
        var budget = ThreadAlarm.maximumLead
        var seen: [Int64] = []
        for _ in 0..<8 {
            budget = ThreadAlarm.spinBudget(after: budget, interrupted: true)
            seen.append(budget)
        }
        #expect(seen.prefix(5) == [100_000, 50_000, 25_000, 12_500, 6_250])
        #expect(seen.suffix(3).allSatisfy { $0 == ThreadAlarm.minimumSpinBudget })
        #expect(ThreadAlarm.minimumSpinBudget == 5_000)
        #expect(ThreadAlarm.interruptionGap == 20_000)
    }

    @Test func undisturbedSpinsGrowTheBudgetBackToTheMaximum() {
        var budget = ThreadAlarm.minimumSpinBudget
        var spins = 0
        while budget < ThreadAlarm.maximumLead {
            budget = ThreadAlarm.spinBudget(after: budget, interrupted: false)
            spins += 1
        }
        #expect(budget == ThreadAlarm.maximumLead)
        #expect(spins == 32, "6.25 µs per undisturbed spin from 5 µs to 200 µs")
        #expect(ThreadAlarm.spinBudget(after: budget, interrupted: false) == ThreadAlarm.maximumLead)
    }
}
