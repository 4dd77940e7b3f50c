//! Counting modulo `2^bits`: wrapping integers in which the signed sums of
//! inclusion-exclusion are exact as long as every value read out is below
//! `2^bits`.
//!
//! The counter picks the narrowest ring whose width exceeds a proven upper
//! bound on the number of deals, so the final counts are exact integers even
//! though intermediate values wrap.

use std::cmp::Ordering;

/// Integers modulo `2^BITS`.
pub(crate) trait Ring: Copy + Ord + std::fmt::Debug + 'static {
    const ZERO: Self;
    const ONE: Self;
    fn from_u128(value: u128) -> Self;
    fn add(self, other: Self) -> Self;
    fn sub(self, other: Self) -> Self;
    fn mul(self, other: Self) -> Self;
    fn to_f64(self) -> f64;
    /// The value, if it fits a `u128`.
    fn to_u128(self) -> Option<u128>;
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
}

impl Ring for u128 {
    const ZERO: u128 = 0;
    const ONE: u128 = 1;
    fn from_u128(value: u128) -> u128 {
        value
    }
    fn add(self, other: u128) -> u128 {
        self.wrapping_add(other)
    }
    fn sub(self, other: u128) -> u128 {
        self.wrapping_sub(other)
    }
    fn mul(self, other: u128) -> u128 {
        self.wrapping_mul(other)
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn to_u128(self) -> Option<u128> {
        Some(self)
    }
}

impl Ring for u64 {
    const ZERO: u64 = 0;
    const ONE: u64 = 1;
    fn from_u128(value: u128) -> u64 {
        value as u64
    }
    fn add(self, other: u64) -> u64 {
        self.wrapping_add(other)
    }
    fn sub(self, other: u64) -> u64 {
        self.wrapping_sub(other)
    }
    fn mul(self, other: u64) -> u64 {
        self.wrapping_mul(other)
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn to_u128(self) -> Option<u128> {
        Some(self as u128)
    }
}

/// `64 * L` bit integers, least significant limb first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Wide<const L: usize>([u64; L]);

impl<const L: usize> Ord for Wide<L> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

impl<const L: usize> PartialOrd for Wide<L> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const L: usize> Ring for Wide<L> {
    const ZERO: Self = Wide([0; L]);
    const ONE: Self = {
        let mut limbs = [0; L];
        limbs[0] = 1;
        Wide(limbs)
    };

    fn from_u128(value: u128) -> Self {
        let mut limbs = [0; L];
        limbs[0] = value as u64;
        limbs[1] = (value >> 64) as u64;
        Wide(limbs)
    }

    fn add(self, other: Self) -> Self {
        let mut limbs = [0; L];
        let mut carry = false;
        for (i, limb) in limbs.iter_mut().enumerate() {
            let (sum, c1) = self.0[i].overflowing_add(other.0[i]);
            let (sum, c2) = sum.overflowing_add(carry as u64);
            *limb = sum;
            carry = c1 || c2;
        }
        Wide(limbs)
    }

    fn sub(self, other: Self) -> Self {
        let mut limbs = [0; L];
        let mut borrow = false;
        for (i, limb) in limbs.iter_mut().enumerate() {
            let (diff, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (diff, b2) = diff.overflowing_sub(borrow as u64);
            *limb = diff;
            borrow = b1 || b2;
        }
        Wide(limbs)
    }

    fn mul(self, other: Self) -> Self {
        let mut limbs = [0u64; L];
        for i in 0..L {
            if self.0[i] == 0 {
                continue;
            }
            let mut carry = 0u128;
            for j in 0..L - i {
                let t = self.0[i] as u128 * other.0[j] as u128 + limbs[i + j] as u128 + carry;
                limbs[i + j] = t as u64;
                carry = t >> 64;
            }
        }
        Wide(limbs)
    }

    fn to_f64(self) -> f64 {
        self.0
            .iter()
            .rev()
            .fold(0.0, |acc, &limb| acc * 18446744073709551616.0 + limb as f64)
    }

    fn to_u128(self) -> Option<u128> {
        self.0[2..]
            .iter()
            .all(|&limb| limb == 0)
            .then(|| self.0[0] as u128 | (self.0[1] as u128) << 64)
    }
}

/// Binomial coefficients `C(n, k)` for `n <= 128`, as ring elements.
pub(crate) struct Binomials<R> {
    table: Vec<R>,
}

impl<R: Ring> Binomials<R> {
    pub(crate) fn new() -> Binomials<R> {
        let mut table = vec![R::ZERO; 129 * 129];
        let mut row = vec![0u128; 129];
        for n in 0..=128 {
            for k in (1..=n).rev() {
                row[k] = row[k].wrapping_add(row[k - 1]);
            }
            row[0] = 1;
            for k in 0..=n {
                table[n * 129 + k] = R::from_u128(row[k]);
            }
        }
        Binomials { table }
    }

    /// `C(n, k)`, zero when `k > n`.
    pub(crate) fn get(&self, n: usize, k: usize) -> R {
        if k > n {
            R::ZERO
        } else {
            self.table[n * 129 + k]
        }
    }
}

/// `log2` of the multinomial `(sum parts)! / prod(parts!)`: an upper bound on
/// the number of ways to deal cards into owners of these sizes.
pub(crate) fn log2_multinomial(parts: &[usize]) -> f64 {
    let log2_factorial = |n: usize| (2..=n).map(|i| (i as f64).log2()).sum::<f64>();
    let total: usize = parts.iter().sum();
    log2_factorial(total) - parts.iter().map(|&p| log2_factorial(p)).sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_matches_u128_below_2_128() {
        let cases: [(u128, u128); 4] = [
            (0, 0),
            (u64::MAX as u128, 3),
            (1 << 100, 1 << 20),
            (123_456_789_123_456_789, 987_654_321),
        ];
        for (a, b) in cases {
            let (wa, wb) = (Wide::<4>::from_u128(a), Wide::<4>::from_u128(b));
            assert_eq!(wa.add(wb).to_u128(), a.checked_add(b));
            if let Some(product) = a.checked_mul(b) {
                assert_eq!(wa.mul(wb).to_u128(), Some(product));
            }
            assert_eq!(wa.sub(wb).add(wb), wa);
            assert_eq!(wa.cmp(&wb), a.cmp(&b));
        }
    }

    #[test]
    fn binomials_are_pascal() {
        let b = Binomials::<u128>::new();
        assert_eq!(b.get(21, 3), 1330);
        assert_eq!(b.get(3, 4), 0);
        assert_eq!(b.get(128, 64), 23951146041928082866135587776380551750);
    }
}
