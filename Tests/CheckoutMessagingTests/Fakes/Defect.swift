/// A failure no port reported as transient: a defect, which no retry can fix.
struct Defect: Error {}
