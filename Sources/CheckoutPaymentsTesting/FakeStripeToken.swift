/// The card tokens ``FakeStripeServer`` answers, each with a scripted behaviour.
///
/// As at Stripe, a token is made into a PaymentMethod (`POST /v1/payment_methods`, `card[token]`)
/// whose charges follow the token's script; Stripe's test PaymentMethod ids in ``paymentMethods``
/// are charged directly. The first four are the contract's sandbox tokens, answered the way Stripe
/// answers its own test cards; the others script a failing gateway. Any other token or PaymentMethod
/// is refused as Stripe refuses an unknown one: 400 `resource_missing`.
public enum FakeStripeToken {
    /// Approved: the PaymentIntent succeeds.
    public static let visa = "tok_visa"
    /// 402 `card_error`, code `card_declined`, decline code `generic_decline`.
    public static let chargeDeclined = "tok_chargeDeclined"
    /// 402 `card_error`, code `card_declined`, decline code `insufficient_funds`.
    public static let chargeDeclinedInsufficientFunds = "tok_chargeDeclinedInsufficientFunds"
    /// 402 `card_error`, code `processing_error`: Stripe's transient card failure.
    public static let processingError = "tok_processingError"
    /// 500 `api_error`, before anything is charged or stored.
    public static let gateway500 = "tok_gateway500"
    /// 429 `rate_limit`, before anything is charged or stored.
    public static let gateway429 = "tok_gateway429"
    /// Answers 500 after ``FakeStripeOptions/slowAnswerDelay``, having charged and stored nothing.
    public static let slow = "tok_slow"
    /// Charges and stores the answer at once, but sends it only after ``FakeStripeOptions/slowAnswerDelay``
    /// the first time: the lost answer of a gateway that timed out after charging. A repeat gets it at once.
    public static let timeoutAfterCharge = "tok_timeoutAfterCharge"
    /// Charges and stores the answer at once, then sends its body a byte every
    /// ``FakeStripeOptions/trickleInterval``: each byte within the client's read timeout, the whole
    /// answer far later than a command can wait.
    public static let trickledAnswer = "tok_trickledAnswer"

    /// Every token above.
    static let all: Set<String> = [
        visa, chargeDeclined, chargeDeclinedInsufficientFunds, processingError, gateway500, gateway429, slow, timeoutAfterCharge,
        trickledAnswer,
    ]

    /// Stripe's test PaymentMethod ids the fake knows, and the token whose script each follows.
    public static let paymentMethods: [String: String] = [
        "pm_card_visa": visa,
        "pm_card_chargeDeclined": chargeDeclined,
        "pm_card_chargeDeclinedInsufficientFunds": chargeDeclinedInsufficientFunds,
        "pm_card_chargeDeclinedProcessingError": processingError,
    ]
}
