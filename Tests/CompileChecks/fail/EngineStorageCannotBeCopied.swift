// compile-check: ownership
// An engine's storage has one owner: its slot table, its state machine and a batch of deliveries are
// noncopyable, so a copy that would alias their raw storage does not compile. (Ownership is checked after
// type checking: the suite compiles this snippet to SIL.)
@testable import TimerKit

func useTable(_ table: borrowing SlotTable) -> Int { table.slotEnd }
func useMachine(_ machine: borrowing TickerStateMachine) -> Int { machine.liveCount }

func copyTheTable() -> Int {
    // expected-error: 'table' consumed more than once
    let table = SlotTable()
    let first = table
    let second = table
    return useTable(first) + useTable(second)
}

func copyTheMachine() -> Int {
    // expected-error: 'machine' consumed more than once
    let machine = TickerStateMachine()
    let first = machine
    let second = machine
    return useMachine(first) + useMachine(second)
}

// expected-error: 'batch' is borrowed and cannot be consumed
func copyABatch(_ batch: borrowing TickerStateMachine.DueBatch) -> Int {
    let copy = batch
    return copy.count
}

func copyTheMachineInItsLock(_ locked: Locked<TickerStateMachine>) -> Int {
    // expected-error: missing reinitialization of inout parameter 'machine' after consume
    locked.withLock { machine in
        let copy = machine
        return useMachine(copy)
    }
}
