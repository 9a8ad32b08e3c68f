/// The JSON body of a command: only the JSON types are checked here, the rules of form are the domain's.
protocol CommandBody {
    init(_ fields: CommandFields) throws(MalformedCommand)
}
