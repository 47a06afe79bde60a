// swift-format-ignore-file
import Cocoa

class SavedSheetController: NSViewController {

    override func viewDidAppear() {
        super.viewDidAppear()
        Timer.scheduledTimer(withTimeInterval: 1.5, repeats: false) { _ in
            self.dismiss(self)
        }
    }
}
