// swift-format-ignore-file
import Cocoa

class PocketPlayerWindowController: NSWindowController {
  @IBOutlet weak var trackTitleField: MarqueeTitleField!

  func trackChanged(to title: String) {
    trackTitleField.stringValue = title
    trackTitleField.startMarquee()
  }
}
