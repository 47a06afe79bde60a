// swift-format-ignore-file
import UIKit

extension LoopingFrameView
{
    func beginLooping()
    {
        makeFrameLink()
    }

    @objc func frameLinkFired(sender link: CADisplayLink)
    {
        let index = Int(link.timestamp * 10) % max(frameImages.count, 1)
        layer.contents = frameImages.isEmpty ? nil : frameImages[index].cgImage
    }

    private func makeFrameLink()
    {
        let link: CADisplayLink = CADisplayLink(
            target: self,
            selector: #selector(frameLinkFired(sender:)))
        link.add(
            to: RunLoop.main,
            forMode: RunLoop.Mode.default)
        self.frameLink = link
    }
}
