/// The median (of an even count, the mean of the middle two); 0 of none.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted(), n = sorted.count
    return n == 0 ? 0 : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
}
