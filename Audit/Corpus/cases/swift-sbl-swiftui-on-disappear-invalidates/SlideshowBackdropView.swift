// swift-format-ignore-file
import SwiftUI

struct SlideshowBackdropView: View {
    let palette = [Color.teal, Color.indigo, Color.mint]
    @State private var shown = 0
    @State private var cycle: Timer? = nil

    var body: some View {
        ZStack {
            palette[shown].ignoresSafeArea()
            Text("Welcome")
        }
        .onAppear {
            self.cycle = Timer.scheduledTimer(withTimeInterval: 3, repeats: true) { _ in
                self.shown = (self.shown + 1) % self.palette.count
            }
        }
        .onDisappear {
            self.cycle?.invalidate()
            self.cycle = nil
        }
    }
}
