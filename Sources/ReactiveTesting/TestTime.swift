/// Virtual time in ticks of a ``TestScheduler`` (one tick is its `resolution`,
/// a millisecond by default).
public typealias TestTime = Int
