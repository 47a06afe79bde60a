// swift-format-ignore-file
import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private var tokenRefresh: Timer?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        tokenRefresh = Timer(timeInterval: 300, target: self, selector: #selector(refreshToken(_:)), userInfo: nil, repeats: true)
        RunLoop.main.add(tokenRefresh!, forMode: .common)
        return true
    }

    @objc func refreshToken(_ timer: Timer) {
        print("refreshing access token")
    }
}
