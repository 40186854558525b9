// The seats' colours: the one place they are set (ui.js builds every page's colours from it).
//
// Chosen so that people with the common colour-vision deficiencies tell every two seats apart:
// tests/test_palette.py simulates protanopia, deuteranopia and tritanopia (Machado et al. 2009) and
// asserts a minimum CIEDE2000 difference between every two colours of a game's seats, and the
// contrast of the army badges. The object between the braces is JSON (the test reads it).
//
// The minimum reached: 16.47 (blue and green seen with tritanopia; the palette before issue 37 had
// 14.1, red and green with protanopia), the smallest CIEDE2000 difference over every two colours that
// can meet in one game and the four visions, each colour's sRGB turned by Machado's matrix (severity
// 1) in linear light, then into CIELAB. tools/palette_search.py found these colours, each kept to what
// its name says (test_palette.NAMES: a mission says "destroy the red armies"). Colour is never the
// only sign all the same: every seat has its mark too (marks).
//
// - seats: seat 1, 2, 3... of a game (up to 10 players);
// - named: games whose goals name seats by colour (Secret Mission RISK: 1 red, 2 blue, 3 green,
//   4 yellow, 5 black, 6 gray, and on a board for more, 7 purple, 8 orange, 9 brown, 10 sky: the
//   colours of risk.rules.missions.COLOURS);
// - marks: seat 1, 2, 3...'s mark (marks.js draws them), on its army badges, in the players list and
//   the legend: the seats are told apart without their colours too;
// - teams: Team RISK, warm colours for the first team (seats 1, 3, 5), cool ones for the second;
//   each team has its shape (a triangle, a square; a line in the legend) and each teammate a mark of
//   that shape: solid, open, open with a dot;
// - neutrals: the neutral armies (2003 2-player RISK has four), each with its own pattern;
// - badge: the army badges' disc and count, and how much darker than the owner's colour the rim is.
export const PALETTE = {
  "seats": [
    {"name": "red", "fill": "#f40805"},
    {"name": "blue", "fill": "#0452ff"},
    {"name": "green", "fill": "#257f5e"},
    {"name": "yellow", "fill": "#ffff00"},
    {"name": "purple", "fill": "#490c7f"},
    {"name": "orange", "fill": "#faa369"},
    {"name": "teal", "fill": "#50aca9"},
    {"name": "pink", "fill": "#ff448c"},
    {"name": "brown", "fill": "#612e19"},
    {"name": "sky", "fill": "#89eaff"}
  ],
  "named": ["red", "blue", "green", "yellow", {"name": "black", "fill": "#33383e"}, {"name": "gray", "fill": "#a2a7a1"},
    "purple", "orange", "brown", "sky"],
  "marks": ["circle", "triangle", "square", "diamond", "star", "plus", "cross", "down", "ring", "hourglass"],
  "teams": [
    {"name": "Team 1", "mark": "triangle", "seats": ["red", "yellow", "orange"],
      "marks": ["triangle", "triangle-open", "triangle-dot"]},
    {"name": "Team 2", "mark": "square", "seats": ["blue", "green", "teal"],
      "marks": ["square", "square-open", "square-dot"]}
  ],
  "neutrals": [
    {"name": "neutral", "fill": "#8d939b", "pattern": "stripes"},
    {"name": "neutral", "fill": "#a8998a", "pattern": "dots"},
    {"name": "neutral", "fill": "#7d8fa6", "pattern": "cross"},
    {"name": "neutral", "fill": "#93a086", "pattern": "bars"}
  ],
  "unclaimed": {"name": "unclaimed", "fill": "#e6dbbf"},
  "tied": {"name": "tied", "fill": "#9aa0a8"},
  "badge": {"disc": "#fbf7ee", "text": "#15120c", "rim_shade": -0.45}
};
