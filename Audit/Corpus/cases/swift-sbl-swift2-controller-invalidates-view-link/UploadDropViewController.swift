// swift-format-ignore-file
import UIKit

class UploadDropViewController: UIViewController {
    @IBOutlet weak var dropZone: DashedBorderView!

    override func viewWillAppear(animated: Bool) {
        super.viewWillAppear(animated)
        if dropZone.crawlLink == nil {
            dropZone.crawlLink = CADisplayLink(target: dropZone, selector: "crawl")
            dropZone.crawlLink.addToRunLoop(NSRunLoop.mainRunLoop(), forMode: NSDefaultRunLoopMode)
        }
    }

    override func viewWillDisappear(animated: Bool) {
        if dropZone.crawlLink != nil {
            dropZone.crawlLink.invalidate()
            dropZone.crawlLink = nil
        }
    }
}
