// The seats' colours: the one place they are set (ui.js builds every page's colours from it).
//
// Chosen so that people with the common colour-vision deficiencies tell every two seats apart:
// tests/test_palette.py simulates protanopia, deuteranopia and tritanopia (Machado et al. 2009) and
// asserts a minimum CIEDE2000 difference between every two colours of a game's seats, and the
// contrast of the army badges. The object between the braces is JSON (the test reads it).
//
// - seats: seat 1, 2, 3... of a game (up to 10 players);
// - named: games whose goals name seats by colour (Secret Mission RISK: 1 red, 2 blue, 3 green,
//   4 yellow, 5 black, 6 gray, and on a board for more, 7 purple, 8 orange, 9 brown, 10 sky: the
//   colours of risk.rules.missions.COLOURS);
// - teams: Team RISK, warm colours for the first team (seats 1, 3, 5), cool ones for the second;
//   each team also has a mark on the army badges (a triangle, a square) and a line in the legend;
// - neutrals: the neutral armies (2003 2-player RISK has four), each with its own pattern;
// - badge: the army badges' disc and count, and how much darker than the owner's colour the rim is.
export const PALETTE = {
  "seats": [
    {"name": "red", "fill": "#e00344"},
    {"name": "blue", "fill": "#2971f3"},
    {"name": "green", "fill": "#20835c"},
    {"name": "yellow", "fill": "#faeb64"},
    {"name": "purple", "fill": "#81079f"},
    {"name": "orange", "fill": "#e39d56"},
    {"name": "teal", "fill": "#24ad9d"},
    {"name": "pink", "fill": "#ff5490"},
    {"name": "brown", "fill": "#823500"},
    {"name": "sky", "fill": "#3fdbff"}
  ],
  "named": ["red", "blue", "green", "yellow", {"name": "black", "fill": "#393840"}, {"name": "gray", "fill": "#aeafa7"},
    "purple", "orange", "brown", "sky"],
  "teams": [
    {"name": "Team 1", "mark": "triangle", "seats": ["red", "yellow", "orange"]},
    {"name": "Team 2", "mark": "square", "seats": ["blue", "green", "teal"]}
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
