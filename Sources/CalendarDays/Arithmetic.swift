extension BinaryInteger {
    /// Division rounding towards negative infinity, as calendar arithmetic needs it (Swift's `/`
    /// rounds towards zero).
    ///
    /// ```swift
    /// print((-7).dividedRoundingDown(by: 2), 7.dividedRoundingDown(by: 2))
    /// // Prints "-4 3"
    /// ```
    @inlinable
    package func dividedRoundingDown(by divisor: Self) -> Self {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// The remainder of `dividedRoundingDown(by:)`, which has the divisor's sign.
    ///
    /// ```swift
    /// print((-1).remainderRoundingDown(dividingBy: 7))
    /// // Prints "6"
    /// ```
    @inlinable
    package func remainderRoundingDown(dividingBy divisor: Self) -> Self {
        self - dividedRoundingDown(by: divisor) * divisor
    }
}
