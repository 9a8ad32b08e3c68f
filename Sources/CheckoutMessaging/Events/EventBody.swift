import JSONWriting

/// An event's JSON body, written field by field with its keys in alphabetical order.
///
/// Written by hand rather than by `JSONEncoder`, whose boxed containers cost a tenth of a worker's
/// CPU per command; a field the event has no value for is left out, as `Codable` leaves out nil.
protocol EventBody {
    func write(to json: inout JSONWriter)
}
