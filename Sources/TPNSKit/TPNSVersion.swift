import TPNSProtocol

/// The version of tpns (declared in TPNSProtocol, which tpns-server shares), seen
/// from `import TPNSKit` alone.
public typealias TPNSVersion = TPNSProtocol.TPNSVersion
