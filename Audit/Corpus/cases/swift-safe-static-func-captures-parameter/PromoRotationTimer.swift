// swift-format-ignore-file
import UIKit

@objc(PromoRotationTimer)
class PromoRotationTimer: NSObject {

    static func rotating(_ carousel: UICollectionView, every seconds: TimeInterval) -> Timer {
        let timer = Timer(timeInterval: seconds, repeats: true) { _ in
            let next = (carousel.indexPathsForVisibleItems.first?.item ?? 0) + 1
            carousel.scrollToItem(at: IndexPath(item: next, section: 0), at: .centeredHorizontally, animated: true)
        }
        RunLoop.main.add(timer, forMode: .common)
        return timer
    }
}
