// swift-format-ignore-file
import UIKit

open class OrbitLoaderView: UIView {
    private var orbitLink: CADisplayLink?
    public private(set) var orbitAngle: CGFloat = 0

    public func startOrbiting() {
        guard orbitLink == nil else { return }
        orbitLink = CADisplayLink(target: self, selector: #selector(advanceOrbit))
        orbitLink?.add(to: .main, forMode: .common)
    }

    public func stopOrbiting() {
        orbitLink?.invalidate()
        orbitLink = nil
    }

    @objc private func advanceOrbit() {
        orbitAngle += 0.1
        setNeedsDisplay()
    }
}
