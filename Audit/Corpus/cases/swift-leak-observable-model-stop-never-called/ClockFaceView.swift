// swift-format-ignore-file
import SwiftUI

struct ClockFaceView: View {
    @StateObject private var model = ClockFaceModel()

    var body: some View {
        Text(model.now, style: .time)
    }
}
