//! Maximum-weight matching over the players of a round.
//!
//! The `mwmatching` crate is a line-by-line port of Joris van Rantwijk's reference
//! implementation of Edmonds' blossom algorithm (O(n³)); no maintained crate offers weighted
//! matching in general graphs. The port is unmaintained, so it is checked here against brute
//! force on small graphs, and it checks its own optimum (its dual variables) on every run.

/// An edge between two vertices with its weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub a: usize,
    pub b: usize,
    pub weight: i32,
}

/// The mate of every vertex of a matching that, among the matchings with the most edges,
/// has the greatest total weight. `vertices` is the number of vertices; edges naming a vertex
/// beyond it, or a vertex twice, are ignored.
pub fn maximum_weight_matching(vertices: usize, edges: &[Edge]) -> Vec<Option<usize>> {
    let mut mates = vec![None; vertices];
    let edges: Vec<(usize, usize, i32)> = edges
        .iter()
        .filter(|e| e.a != e.b && e.a < vertices && e.b < vertices)
        .map(|e| (e.a, e.b, e.weight))
        .collect();
    if edges.is_empty() {
        return mates;
    }
    let found = mwmatching::Matching::new(edges).max_cardinality().solve();
    for (v, mate) in found.into_iter().enumerate().take(vertices) {
        if mate != mwmatching::SENTINEL && mate < vertices {
            mates[v] = Some(mate);
        }
    }
    mates
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The best (edges, weight) over every matching, by trying them all.
    fn brute_force(vertices: usize, edges: &[Edge]) -> (usize, i64) {
        fn go(v: usize, used: &mut Vec<bool>, n: usize, w: &[Vec<Option<i32>>]) -> (usize, i64) {
            if v == n {
                return (0, 0);
            }
            if used[v] {
                return go(v + 1, used, n, w);
            }
            used[v] = true;
            let mut best = go(v + 1, used, n, w);
            for u in v + 1..n {
                if let (false, Some(weight)) = (used[u], w[v][u]) {
                    used[u] = true;
                    let (count, total) = go(v + 1, used, n, w);
                    best = best.max((count + 1, total + i64::from(weight)));
                    used[u] = false;
                }
            }
            used[v] = false;
            best
        }
        let mut w = vec![vec![None; vertices]; vertices];
        for e in edges {
            w[e.a][e.b] = Some(e.weight);
            w[e.b][e.a] = Some(e.weight);
        }
        go(0, &mut vec![false; vertices], vertices, &w)
    }

    fn value(mates: &[Option<usize>], edges: &[Edge]) -> (usize, i64) {
        let mut count = 0;
        let mut total = 0;
        for e in edges {
            if mates[e.a] == Some(e.b) {
                assert_eq!(mates[e.b], Some(e.a));
                count += 1;
                total += i64::from(e.weight);
            }
        }
        (count, total)
    }

    #[test]
    fn agrees_with_brute_force_on_small_graphs() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(22);
        for case in 0..3000 {
            let vertices = rng.gen_range(1..=10);
            let density: f64 = rng.gen_range(0.2..1.0);
            let mut edges = Vec::new();
            for a in 0..vertices {
                for b in a + 1..vertices {
                    if rng.gen_bool(density) {
                        // Few distinct weights make ties, where bugs hide.
                        let weight = if case % 2 == 0 {
                            rng.gen_range(0..4)
                        } else {
                            rng.gen_range(-50..100_000)
                        };
                        edges.push(Edge { a, b, weight });
                    }
                }
            }
            let mates = maximum_weight_matching(vertices, &edges);
            for (v, mate) in mates.iter().enumerate() {
                if let Some(u) = mate {
                    assert_eq!(mates[*u], Some(v));
                }
            }
            assert_eq!(
                value(&mates, &edges),
                brute_force(vertices, &edges),
                "case {case}: {vertices} vertices, {edges:?}"
            );
        }
    }

    #[test]
    fn odd_edges_are_ignored() {
        let edges = [
            Edge {
                a: 0,
                b: 0,
                weight: 9,
            },
            Edge {
                a: 0,
                b: 7,
                weight: 9,
            },
            Edge {
                a: 0,
                b: 1,
                weight: 1,
            },
        ];
        assert_eq!(maximum_weight_matching(2, &edges), vec![Some(1), Some(0)]);
        assert_eq!(maximum_weight_matching(3, &[]), vec![None; 3]);
    }
}
