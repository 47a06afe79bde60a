// swift-format-ignore-file
import UIKit

class LiveBannerStripCell: UICollectionViewCell {
    var bannerAdvanceTimer = Timer()
    var bannerIndex = 0
    @IBOutlet weak var bannerStrip: UICollectionView!
    @IBOutlet weak var bannerDots: UIPageControl!

    override func awakeFromNib() {
        super.awakeFromNib()
        bannerDots.currentPage = 0
        DispatchQueue.main.async {
            self.bannerAdvanceTimer = Timer.scheduledTimer(timeInterval: 2.0, target: self, selector: #selector(self.advanceLiveBanner), userInfo: nil, repeats: true)
        }
    }

    @objc func advanceLiveBanner() {
        if bannerIndex < bannerDots.numberOfPages {
            let path = IndexPath(item: bannerIndex, section: 0)
            bannerStrip.scrollToItem(at: path, at: .centeredHorizontally, animated: true)
            bannerDots.currentPage = bannerIndex
            bannerIndex += 1
        } else {
            bannerIndex = 0
            bannerStrip.scrollToItem(at: IndexPath(item: 0, section: 0), at: .centeredHorizontally, animated: false)
            bannerDots.currentPage = 0
            bannerIndex = 1
        }
    }
}
