//! Tests of `infer`.

use super::*;

#[test]
fn masks_cover_colour_face_and_wilds() {
    let top = Card::colored(Color::Red, uno::Face::Digit(5)).unwrap_or(Card::WILD);
    let m = playable_mask(top, Some(Color::Red));
    assert_eq!(m.count_ones(), 13 + 3 + 2);
    assert_ne!(m & bit(Card::WILD_DRAW_FOUR), 0);
    let m = playable_mask(Card::WILD, None);
    assert_eq!(m, WILDS);
}

#[test]
fn merged_groups_keep_only_what_both_excluded() {
    let mut g = vec![(2, 0b0111), (1, 0b0110), (3, 0b1000), (1, 0b1001)];
    merge_groups(&mut g);
    assert_eq!(g, vec![(3, 0b0110), (3, 0b1000), (1, 0b1001)]);
    let mut g = vec![(1, 0b01), (1, 0b10), (1, 0b100), (1, 0b1000)];
    merge_groups(&mut g);
    assert_eq!(g.len(), 2, "disjoint masks merge into nothing: {g:?}");
    assert_eq!(g.iter().map(|&(n, _)| n).sum::<usize>(), 2);
}
