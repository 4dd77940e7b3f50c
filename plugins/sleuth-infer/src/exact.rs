//! Exact model counting by inclusion-exclusion over the grid of class counts.
//!
//! Let `U` be the open cards and, for each active owner `o`, `F_o(T)` the
//! number of hands `o` may take inside `T ⊆ U` (right size, allowed cards,
//! every clause of `o` hit). The hand sizes add up to `|U|`, so a tuple of
//! hands whose union is `U` is a partition of `U`, and by Möbius inversion
//!
//! ```text
//! deals(V, owners) = sum over T ⊆ V of (-1)^|V \ T| * prod_o F_o(T)
//! ```
//!
//! For each owner `o`, `R_o = Möbius(prod of F_o' over o' != o)` gives the
//! number of ways the others share `U \ A` for any hand `A` of `o`; summing
//! `R_o(U \ A)` over the valid hands `A` gives the total and, split by the
//! cards of `A`, the count of deals putting each card with `o`. For the
//! envelope the same numbers, read one hand at a time, are the solution
//! distribution.
//!
//! Everything depends on a set only through how many cards of each class it
//! holds, so sets are cells of a mixed-radix grid with `prod (s_c + 1)` cells
//! for class sizes `s_c`, and the zeta and Möbius transforms become
//! binomial-weighted transforms along each axis. The work is
//! `O(cells * sum (s_c + 1) * owners)` ring operations.

use crate::problem::{OwnerSpec, Problem};
use crate::ring::{Binomials, Ring};

/// The counts of a solved problem, in ring `R`.
pub(crate) struct Counts<R> {
    /// Deals consistent with everything.
    pub(crate) total: R,
    /// `[owner position in problem.owners][class]`: deals putting one given
    /// card of that class with that owner.
    pub(crate) per_card: Vec<Vec<R>>,
    /// For the envelope, if it is open: each valid class-count vector and
    /// the deals for each single envelope of that type.
    pub(crate) envelope_types: Vec<(Vec<u8>, R)>,
}

/// The mixed-radix grid: class `c` has axis length `s_c + 1`.
struct Grid {
    sizes: Vec<usize>,
    strides: Vec<usize>,
    cells: usize,
}

impl Grid {
    fn new(sizes: Vec<usize>, cells: usize) -> Grid {
        let mut strides = Vec::with_capacity(sizes.len());
        let mut stride = 1;
        for &size in &sizes {
            strides.push(stride);
            stride *= size + 1;
        }
        Grid {
            sizes,
            strides,
            cells,
        }
    }

    /// The count per class of a cell.
    fn digits(&self, cell: usize) -> Vec<u8> {
        self.sizes
            .iter()
            .zip(&self.strides)
            .map(|(&size, &stride)| (cell / stride % (size + 1)) as u8)
            .collect()
    }

    /// The cell of the full set `U`.
    fn full(&self) -> usize {
        self.cells - 1
    }
}

/// Counts `problem` exactly. `cells` must be `problem.cells()`; the ring
/// must be wide enough for the total (see `ring`).
pub(crate) fn count<R: Ring>(problem: &Problem, cells: usize) -> Counts<R> {
    let binomials = Binomials::<R>::new();
    let grid = Grid::new(problem.sizes(), cells);
    let owners = &problem.owners;
    let hand_types: Vec<Vec<usize>> = owners.iter().map(|spec| hand_types(spec, &grid)).collect();
    let hands_within: Vec<Vec<R>> = owners
        .iter()
        .zip(&hand_types)
        .map(|(spec, types)| hands_within(spec, types, &grid, &binomials))
        .collect();

    // The owner whose counts follow from the others': any player.
    let envelope_position = owners
        .iter()
        .position(|spec| spec.index == envelope_index(problem));
    let derived = (owners.len() > 1)
        .then(|| {
            (0..owners.len())
                .rev()
                .find(|&o| Some(o) != envelope_position)
        })
        .flatten();

    let mut total = None;
    let mut per_card = vec![vec![R::ZERO; grid.sizes.len()]; owners.len()];
    let mut envelope_types = Vec::new();
    let mut others = vec![R::ZERO; cells];
    for position in 0..owners.len() {
        if Some(position) == derived {
            continue;
        }
        let factors: Vec<&[R]> = (0..owners.len())
            .filter(|&other| other != position)
            .map(|other| hands_within[other].as_slice())
            .collect();
        for (cell, value) in others.iter_mut().enumerate() {
            *value = factors
                .iter()
                .fold(R::ONE, |product, factor| product.mul(factor[cell]));
        }
        transform(&mut others, &grid, &binomials, true);
        let mut sum = R::ZERO;
        for &hand in &hand_types[position] {
            let rest = others[grid.full() - hand];
            if rest.is_zero() {
                continue;
            }
            let counts = grid.digits(hand);
            if Some(position) == envelope_position {
                envelope_types.push((counts.clone(), rest));
            }
            // Per class taken from: hands of this type, and those among them
            // holding one given card of the class.
            let support: Vec<usize> = (0..counts.len()).filter(|&c| counts[c] > 0).collect();
            let all: Vec<R> = support
                .iter()
                .map(|&c| binomials.get(grid.sizes[c], counts[c] as usize))
                .collect();
            let mut suffix = vec![R::ONE; support.len() + 1];
            for i in (0..support.len()).rev() {
                suffix[i] = suffix[i + 1].mul(all[i]);
            }
            sum = sum.add(suffix[0].mul(rest));
            let mut prefix = R::ONE;
            for (i, &c) in support.iter().enumerate() {
                let with_card = binomials.get(grid.sizes[c] - 1, counts[c] as usize - 1);
                let ways = prefix.mul(with_card).mul(suffix[i + 1]);
                per_card[position][c] = per_card[position][c].add(ways.mul(rest));
                prefix = prefix.mul(all[i]);
            }
        }
        debug_assert!(
            total.is_none_or(|t| t == sum),
            "owners disagree on the total"
        );
        total.get_or_insert(sum);
    }
    // With no open owner the deal is fully known: one deal.
    let total = total.unwrap_or(R::ONE);
    if let Some(derived) = derived {
        // Every deal puts each card somewhere.
        let assigned: Vec<R> = (0..grid.sizes.len())
            .map(|c| {
                (0..owners.len())
                    .filter(|&o| o != derived)
                    .fold(R::ZERO, |sum, o| sum.add(per_card[o][c]))
            })
            .collect();
        per_card[derived] = assigned.iter().map(|&a| total.sub(a)).collect();
    }
    Counts {
        total,
        per_card,
        envelope_types,
    }
}

fn envelope_index(problem: &Problem) -> usize {
    problem.held.len() - 1
}

/// Every class-count vector the owner may take (group counts exact, each
/// clause hit), each given by its cell.
fn hand_types(spec: &OwnerSpec, grid: &Grid) -> Vec<usize> {
    let classes = grid.sizes.len();
    let group_of: Vec<Option<usize>> = (0..classes)
        .map(|c| spec.groups.iter().position(|&(mask, _)| mask >> c & 1 == 1))
        .collect();
    // Cards a group can still take from classes c.. onwards.
    let mut room_after = vec![vec![0usize; spec.groups.len()]; classes + 1];
    for c in (0..classes).rev() {
        room_after[c] = room_after[c + 1].clone();
        if let Some(g) = group_of[c] {
            room_after[c][g] += grid.sizes[c];
        }
    }
    let mut found = Vec::new();
    let mut counts = vec![0u8; classes];
    let mut needs: Vec<usize> = spec.groups.iter().map(|&(_, need)| need).collect();
    let mut search = Search {
        spec,
        grid,
        group_of: &group_of,
        room_after: &room_after,
        found: &mut found,
    };
    search.step(0, 0, 0, &mut counts, &mut needs);
    found
}

struct Search<'a> {
    spec: &'a OwnerSpec,
    grid: &'a Grid,
    group_of: &'a [Option<usize>],
    room_after: &'a [Vec<usize>],
    found: &'a mut Vec<usize>,
}

impl Search<'_> {
    fn step(
        &mut self,
        c: usize,
        cell: usize,
        support: u128,
        counts: &mut [u8],
        needs: &mut [usize],
    ) {
        if c == counts.len() {
            if needs.iter().all(|&need| need == 0)
                && self
                    .spec
                    .clauses
                    .iter()
                    .all(|&clause| clause & support != 0)
            {
                self.found.push(cell);
            }
            return;
        }
        let Some(g) = self.group_of[c] else {
            return self.step(c + 1, cell, support, counts, needs);
        };
        let most = self.grid.sizes[c].min(needs[g]);
        for take in 0..=most {
            if needs[g] - take > self.room_after[c + 1][g] {
                continue;
            }
            counts[c] = take as u8;
            needs[g] -= take;
            let support = if take > 0 { support | 1 << c } else { support };
            self.step(
                c + 1,
                cell + take * self.grid.strides[c],
                support,
                counts,
                needs,
            );
            needs[g] += take;
        }
        counts[c] = 0;
    }
}

/// `F_o(T)` on every cell: the number of valid hands inside `T`.
fn hands_within<R: Ring>(
    spec: &OwnerSpec,
    types: &[usize],
    grid: &Grid,
    binomials: &Binomials<R>,
) -> Vec<R> {
    if spec.clauses.is_empty() {
        return closed_form(spec, grid, binomials);
    }
    let mut values = vec![R::ZERO; grid.cells];
    for &cell in types {
        values[cell] = R::ONE;
    }
    transform(&mut values, grid, binomials, false);
    values
}

/// Without clauses, `F_o(T) = prod over groups of C(|T ∩ group|, need)`,
/// walked over the grid with an odometer.
fn closed_form<R: Ring>(spec: &OwnerSpec, grid: &Grid, binomials: &Binomials<R>) -> Vec<R> {
    let classes = grid.sizes.len();
    let group_of: Vec<Option<usize>> = (0..classes)
        .map(|c| spec.groups.iter().position(|&(mask, _)| mask >> c & 1 == 1))
        .collect();
    let mut digits = vec![0usize; classes];
    let mut sums = vec![0usize; spec.groups.len()];
    let mut values = Vec::with_capacity(grid.cells);
    for _ in 0..grid.cells {
        let value = spec
            .groups
            .iter()
            .zip(&sums)
            .fold(R::ONE, |acc, (&(_, need), &sum)| {
                acc.mul(binomials.get(sum, need))
            });
        values.push(value);
        for c in 0..classes {
            if digits[c] < grid.sizes[c] {
                digits[c] += 1;
                if let Some(g) = group_of[c] {
                    sums[g] += 1;
                }
                break;
            }
            if let Some(g) = group_of[c] {
                sums[g] -= digits[c];
            }
            digits[c] = 0;
        }
    }
    values
}

/// Cells per piece of the grid transformed in one go along the short axes,
/// so that the piece stays in cache (256 KiB of `u64`).
const PIECE_CELLS: usize = 1 << 15;

/// The subset-sum (zeta) transform over the grid, or its inverse (Möbius)
/// when `inverse`: along an axis of length `s + 1`,
/// `out[t] = sum over a <= t of C(t, a) * in[a]`, with sign `(-1)^(t - a)`
/// for the inverse. Axes are independent, so the short ones are done piece
/// by piece while a piece is in cache, the long ones over the whole grid.
fn transform<R: Ring>(values: &mut [R], grid: &Grid, binomials: &Binomials<R>, inverse: bool) {
    transform_in_pieces(values, grid, binomials, inverse, PIECE_CELLS);
}

/// [`transform`] with pieces of at most `piece_cells` cells.
fn transform_in_pieces<R: Ring>(
    values: &mut [R],
    grid: &Grid,
    binomials: &Binomials<R>,
    inverse: bool,
    piece_cells: usize,
) {
    let span = |c: usize| grid.strides[c] * (grid.sizes[c] + 1);
    let short = (0..grid.sizes.len())
        .take_while(|&c| span(c) <= piece_cells)
        .count();
    let piece = if short == 0 { 1 } else { span(short - 1) };
    for chunk in values.chunks_exact_mut(piece) {
        for c in 0..short {
            transform_axis(chunk, grid.strides[c], grid.sizes[c], binomials, inverse);
        }
    }
    for c in short..grid.sizes.len() {
        transform_axis(values, grid.strides[c], grid.sizes[c], binomials, inverse);
    }
}

/// [`transform`] along one axis of length `size + 1` and stride `stride`,
/// over `values` (a whole number of spans of that axis).
fn transform_axis<R: Ring>(
    values: &mut [R],
    stride: usize,
    size: usize,
    binomials: &Binomials<R>,
    inverse: bool,
) {
    let span = stride * (size + 1);
    if size == 1 {
        for chunk in values.chunks_exact_mut(span) {
            let (low, high) = chunk.split_at_mut(stride);
            for (high, &low) in high.iter_mut().zip(low.iter()) {
                *high = if inverse {
                    high.sub(low)
                } else {
                    high.add(low)
                };
            }
        }
        return;
    }
    // Signed binomials of the axis, row t: C(t, a) (-1)^(t - a) if inverse.
    let coefficients: Vec<R> = (0..=size)
        .flat_map(|t| {
            (0..=size).map(move |a| {
                let c = binomials.get(t, a);
                if inverse && a <= t && (t - a) % 2 == 1 {
                    R::ZERO.sub(c)
                } else {
                    c
                }
            })
        })
        .collect();
    let mut line = vec![R::ZERO; size + 1];
    for chunk in values.chunks_exact_mut(span) {
        for offset in 0..stride {
            for (t, entry) in line.iter_mut().enumerate() {
                *entry = chunk[offset + t * stride];
            }
            for t in 0..=size {
                let row = &coefficients[t * (size + 1)..=t * (size + 1) + t];
                chunk[offset + t * stride] = row
                    .iter()
                    .zip(&line)
                    .fold(R::ZERO, |sum, (&c, &entry)| sum.add(c.mul(entry)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::{Knowledge, Owner};
    use crate::ring::Wide;

    /// Total, per owner and class, per envelope type.
    type Plain = (Option<u128>, Vec<Vec<Option<u128>>>, Vec<Option<u128>>);

    /// The counts as plain integers, to compare rings.
    fn plain<R: Ring>(problem: &Problem) -> Plain {
        let counts = count::<R>(problem, problem.cells().unwrap());
        (
            counts.total.to_u128(),
            counts
                .per_card
                .iter()
                .map(|row| row.iter().map(|c| c.to_u128()).collect())
                .collect(),
            counts
                .envelope_types
                .iter()
                .map(|(_, c)| c.to_u128())
                .collect(),
        )
    }

    #[test]
    fn pieces_do_not_change_transforms() {
        let grid = Grid::new(vec![1, 2, 1, 3, 1], 2 * 3 * 2 * 4 * 2);
        let binomials = Binomials::<u64>::new();
        let start: Vec<u64> = (0..grid.cells as u64).map(|i| i * i % 17).collect();
        for inverse in [false, true] {
            let mut whole = start.clone();
            transform_in_pieces(&mut whole, &grid, &binomials, inverse, usize::MAX);
            for piece in [1, 2, 6, 12, 48] {
                let mut pieces = start.clone();
                transform_in_pieces(&mut pieces, &grid, &binomials, inverse, piece);
                assert_eq!(pieces, whole, "piece {piece}");
            }
            // The inverse undoes the transform.
            transform_in_pieces(&mut whole, &grid, &binomials, !inverse, 4);
            assert_eq!(whole, start);
        }
    }

    #[test]
    fn every_ring_counts_the_same() {
        let mut generalized = Knowledge::new(&[(0..9).collect()], &[3], &[2, 2, 2]).unwrap();
        generalized.add_has_one_of(0, &[0, 1, 2]).unwrap();
        generalized.add_has_one_of(1, &[2, 3, 4, 5]).unwrap();
        generalized.add_cannot_disprove(2, &[0, 6]).unwrap();
        let mut three = Knowledge::new(
            &[vec![0, 1, 2], vec![3, 4, 5], vec![6, 7, 8, 9]],
            &[1, 1, 1],
            &[3, 4],
        )
        .unwrap();
        three.add_has(Owner::Player(1), 9).unwrap();
        three.add_has_one_of(0, &[0, 3, 6]).unwrap();
        for knowledge in [generalized, three] {
            let problem = Problem::new(&knowledge);
            let narrow = plain::<u64>(&problem);
            assert!(narrow.0.is_some_and(|total| total > 0));
            assert_eq!(plain::<u128>(&problem), narrow);
            assert_eq!(plain::<Wide<4>>(&problem), narrow);
            assert_eq!(plain::<Wide<8>>(&problem), narrow);
        }
    }
}
