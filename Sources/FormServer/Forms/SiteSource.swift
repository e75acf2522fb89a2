import Synchronization

/// Where the routes find one form's compiled site. A form whose options Swift provides can have them
/// reloaded while the server runs (`FormServerApp.reloadOptions`): its site sits in a slot that is
/// replaced whole, and each request reads the slot once and finishes with the site it read. Every
/// other form's site is fixed, and costs its requests no lock.
enum SiteSource: Sendable {
    case fixed(FormSite)
    case reloadable(SiteSlot)

    /// The site to answer a request with.
    var site: FormSite {
        switch self {
        case .fixed(let site): site
        case .reloadable(let slot): slot.site
        }
    }
}

/// The current site of a form with option providers.
final class SiteSlot: Sendable {
    private let current: Mutex<FormSite>

    init(_ site: FormSite) { current = Mutex(site) }

    /// The site now; a reload after this read does not change it.
    var site: FormSite { current.withLock { $0 } }

    /// Serves `site` from now on.
    func replace(with site: FormSite) { current.withLock { $0 = site } }
}
