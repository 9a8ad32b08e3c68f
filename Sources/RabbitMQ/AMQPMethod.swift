/// AMQP 0-9-1 method ids (class << 16 | method); librabbitmq defines them as casts Swift cannot import.
enum AMQPMethod {
    static let connectionClose: UInt32 = 0x000A_0032
    static let connectionCloseOK: UInt32 = 0x000A_0033
    static let connectionBlocked: UInt32 = 0x000A_003C
    static let connectionUnblocked: UInt32 = 0x000A_003D
    static let channelOpen: UInt32 = 0x0014_000A
    static let channelOpenOK: UInt32 = 0x0014_000B
    static let channelClose: UInt32 = 0x0014_0028
    static let channelCloseOK: UInt32 = 0x0014_0029
    static let exchangeDeclare: UInt32 = 0x0028_000A
    static let exchangeDeclareOK: UInt32 = 0x0028_000B
    static let exchangeDelete: UInt32 = 0x0028_0014
    static let exchangeDeleteOK: UInt32 = 0x0028_0015
    static let queueDeclare: UInt32 = 0x0032_000A
    static let queueDeclareOK: UInt32 = 0x0032_000B
    static let queueBind: UInt32 = 0x0032_0014
    static let queueBindOK: UInt32 = 0x0032_0015
    static let queuePurge: UInt32 = 0x0032_001E
    static let queuePurgeOK: UInt32 = 0x0032_001F
    static let queueDelete: UInt32 = 0x0032_0028
    static let queueDeleteOK: UInt32 = 0x0032_0029
    static let basicQos: UInt32 = 0x003C_000A
    static let basicQosOK: UInt32 = 0x003C_000B
    static let basicConsume: UInt32 = 0x003C_0014
    static let basicConsumeOK: UInt32 = 0x003C_0015
    static let basicCancel: UInt32 = 0x003C_001E
    static let basicPublish: UInt32 = 0x003C_0028
    static let basicGet: UInt32 = 0x003C_0046
    static let basicGetOK: UInt32 = 0x003C_0047
    static let basicGetEmpty: UInt32 = 0x003C_0048
    static let basicReturn: UInt32 = 0x003C_0032
    static let basicDeliver: UInt32 = 0x003C_003C
    static let basicAck: UInt32 = 0x003C_0050
    static let basicNack: UInt32 = 0x003C_0078
    static let confirmSelect: UInt32 = 0x0055_000A
    static let confirmSelectOK: UInt32 = 0x0055_000B
}
