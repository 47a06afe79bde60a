// swift-format-ignore-file
import SwiftUI

struct BreathCountView: View {
    @State var breaths = 0
    @State var breathTimer: Timer?

    var body: some View {
        VStack {
            Text("\(breaths) breaths")
            Button("Begin") {
                breathTimer?.invalidate()
                breathTimer = Timer.scheduledTimer(withTimeInterval: 1.0, repeats: true) { _ in
                    self.breaths += 1
                    if breaths == 5 {
                        breathTimer?.invalidate()
                        breaths = 0
                    }
                }
            }
        }
    }
}
