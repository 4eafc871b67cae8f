// Tablemate enclosure: a base tray that holds the Pico, and a lid that carries the 0.96" OLED,
// the buttons (6x6 mm tactile switches on a perfboard) and the piezo.
//
// All sizes are in mm. Coordinates: x across the front, y towards the back, z up; z = 0 is the
// top of the base's floor and (x, y) = (0, 0) the middle of the inside. The lid is modelled where
// it sits when closed; `explode` lifts it for the picture.
//
// Picture:  openscad -o tablemate.png --imgsize=1200,900 --viewall --autocenter \
//                    --colorscheme=Tomorrow tablemate.scad
// Printing: openscad -D 'part="base"' -o base.stl tablemate.scad
//           openscad -D 'part="lid"'  -o lid.stl  tablemate.scad   (lid comes out top-down)
// PLA or PETG, 0.2 mm layers, no supports needed (the USB opening bridges ~12 mm).

/* [View] */
part = "assembly";      // "assembly" (lid lifted by `explode`), "base" or "lid" (print orientation)
explode = 40;           // how far the lid floats above the base in the assembly view
show_parts = true;      // draw the Pico, OLED, buttons and piezo in the assembly view

/* [Shell] */
inner = [92, 62];       // inside width (x) and depth (y)
wall = 2.0;             // side walls
floor_t = 2.0;          // base floor
top_t = 2.0;            // lid top plate (the buttons' stems must clear it, see switch_h)
base_h = 16;            // base walls: floor top to rim
lid_h = 6;              // lid skirt: rim to the underside of the top plate
corner_r = 4;           // outside corner radius
lip_h = 3;              // the lid's lip drops this far inside the base walls
lip_t = 1.2;            // lip thickness
fit = 0.25;             // clearance per side between mating parts

/* [Case screws: 4x M2.5 x 20, up through the floor into the lid] */
post_d = 6;             // corner posts, base and lid
post_inset = 2.6;       // post centre from the inside walls (less than post_d / 2: merges with them)
screw_clear_d = 2.9;    // through the base posts
screw_pilot_d = 2.2;    // self-tapping into the lid posts
screw_head_d = 5.2;     // counterbore under the floor
screw_head_h = 1.6;

/* [Raspberry Pi Pico (also Pico W, Pico 2: same outline, holes and USB)] */
pico = [51, 21, 1.0];   // board length (x), width (y), thickness
pico_holes = [47, 11.4]; // M2 mounting holes: spacing along (x) and across (y)
usb_side = 1;           // the Pico's USB end faces the right wall (+1) or the left wall (-1)
pico_usb_gap = 1.5;     // board's USB end to the inside of that wall (the socket overhangs ~1.3)
pico_y = 10;            // board centre, y
standoff_h = 4;         // room under the Pico for wires soldered through its holes
standoff_d = 4.5;
standoff_hole_d = 1.7;  // M2 self-tapping screw; 3.2 for M2 heat-set inserts
usb_cut = [12, 8];      // opening for the micro-USB plug's overmould: width (y), height (z)
usb_z = 1.6;            // socket centre above the Pico's top surface

/* [OLED: 0.96" SSD1306 I2C module, 4 pins, about 27 x 27 mm] */
oled_pcb = [27.3, 27.8, 1.2];  // module PCB: x, y, thickness (measure yours)
oled_glass = [26.7, 19.3, 1.6]; // glass outline and thickness; the glass touches the lid
oled_active = [21.74, 10.86];   // active (lit) area
oled_window = [23.5, 12.5];     // the lid's window: a little larger than the active area
oled_chamfer = 1.2;             // the window widens by this much towards the outside
oled_pos = [0, 14];             // module centre under the lid
oled_active_offset = [0, 1.5];  // active-area centre from the PCB centre (pins at +y; measure yours)
oled_holes = [23.3, 23.8];      // module's M2 holes: spacing x, y (measure yours)
oled_post_d = 4.2;
oled_hole_d = 1.7;              // M2 self-tapping; the posts are as tall as the glass

/* [Buttons: 6x6 mm tactile switches soldered to a perfboard screwed under the lid] */
grid = 2.54;                    // perfboard pitch: keep switch centres on it
dpad_center = [-9.5 * grid, -5.5 * grid];
dpad_step = 4 * grid;           // 10.16 mm from the centre to each arrow
action_buttons = [[10 * grid, -3.5 * grid],   // OK
                  [14 * grid, -7 * grid]];    // BACK (leave out for a five-button build)
// UP, DOWN, LEFT, RIGHT, then OK, BACK. Any list of [x, y] works: a three-button build is
// e.g. [dpad_center + [0, dpad_step], dpad_center - [0, dpad_step], action_buttons[0]].
buttons = concat([for (d = [[0, 1], [0, -1], [-1, 0], [1, 0]]) dpad_center + dpad_step * d],
                 action_buttons);
button_hole_d = 4.0;            // round 3.5 mm stems; 4.6 for caps
switch_h = 9.5;                 // switch height above its board (6x6x9.5; 6x6x5 is too short)
stem_protrude = 1.5;            // stem above the lid
switch_body = [6, 6, 3.5];
btn_board = [78, 28, 1.6];      // perfboard cut to size
btn_board_pos = [0, -15];       // its centre under the lid
btn_post_inset = 3;             // its screw posts, from its corners
btn_post_d = 4.5;
btn_post_hole_d = 1.7;          // M2 self-tapping; drill the perfboard 2.2

/* [Piezo: passive, glued into a ring under the lid] */
piezo_pos = [30, 16];
piezo_d = 12.2;                 // 12 mm passive buzzer; ~27.5 for a bare disc (move it, too)
piezo_h = 9.5;
piezo_ring_h = 3;
piezo_ring_t = 1.2;
vent_d = 1.6;                   // sound holes: one in the middle and a ring of `vents`
vents = 6;
vent_ring_r = 3.4;

$fn = 40;

// ---- derived --------------------------------------------------------------------------------
outer = inner + [2 * wall, 2 * wall];
rim = base_h;                   // where the lid meets the base
under_top = base_h + lid_h;     // underside of the lid's top plate
lid_top = under_top + top_t;
btn_gap = switch_h - stem_protrude - top_t;   // perfboard top below the lid's underside
pico_x = usb_side * (inner.x / 2 - pico_usb_gap - pico.x / 2);
posts = [for (sx = [-1, 1], sy = [-1, 1])
         [sx * (inner.x / 2 - post_inset), sy * (inner.y / 2 - post_inset)]];
pico_hole_xy = [for (sx = [-1, 1], sy = [-1, 1])
                [pico_x + sx * pico_holes.x / 2, pico_y + sy * pico_holes.y / 2]];
oled_hole_xy = [for (sx = [-1, 1], sy = [-1, 1])
                oled_pos + [sx * oled_holes.x / 2, sy * oled_holes.y / 2]];
btn_post_xy = [for (sx = [-1, 1], sy = [-1, 1])
               btn_board_pos + [sx * (btn_board.x / 2 - btn_post_inset),
                                sy * (btn_board.y / 2 - btn_post_inset)]];

// ---- helpers --------------------------------------------------------------------------------
// A rounded rectangle `size` (x, y) with corner radius r, extruded from z0 to z1.
module rbox(size, r, z0, z1) {
    r = max(r, 0.01);
    translate([0, 0, z0]) linear_extrude(z1 - z0)
        offset(r = r) square([size.x - 2 * r, size.y - 2 * r], center = true);
}

module at(points, z = 0) { for (p = points) translate([p.x, p.y, z]) children(); }

// ---- base tray ------------------------------------------------------------------------------
module base() {
    difference() {
        union() {
            difference() {
                rbox(outer, corner_r, -floor_t, rim);
                rbox(inner, corner_r - wall, 0, rim + 1);
            }
            at(posts) cylinder(d = post_d, h = rim);
            at(pico_hole_xy) cylinder(d = standoff_d, h = standoff_h);
        }
        // case screws: clearance through the posts, heads sunk into the floor
        at(posts, -floor_t - 1) {
            cylinder(d = screw_clear_d, h = rim + floor_t + 2);
            cylinder(d = screw_head_d, h = screw_head_h + 1);
        }
        at(pico_hole_xy, 1) cylinder(d = standoff_hole_d, h = standoff_h);
        // micro-USB opening in the side wall, centred on the Pico's socket
        translate([usb_side * (inner.x / 2 + wall / 2), pico_y, standoff_h + pico.z + usb_z])
            rotate([0, 90, 0]) rbox([usb_cut.y, usb_cut.x], 1.5, -wall, wall);
    }
}

// ---- lid (in its closed position) -----------------------------------------------------------
module lid() {
    lip_out = inner - [2 * fit, 2 * fit];
    lip_in = lip_out - [2 * lip_t, 2 * lip_t];
    difference() {
        union() {
            difference() {
                union() {
                    rbox(outer, corner_r, rim, lid_top);
                    rbox(lip_out, corner_r - wall - fit, rim - lip_h, rim + 0.01);
                }
                rbox(lip_in, corner_r - wall - fit - lip_t, rim - lip_h - 1, under_top);
                // the lip steps around the base's corner posts
                at(posts, rim - lip_h - 1) cylinder(d = post_d + 2 * fit, h = lip_h + 1);
            }
            at(posts, rim) cylinder(d = post_d, h = lid_h + 0.01);
            at(oled_hole_xy, under_top - oled_glass.z) cylinder(d = oled_post_d, h = oled_glass.z + 0.01);
            at(btn_post_xy, under_top - btn_gap) cylinder(d = btn_post_d, h = btn_gap + 0.01);
            translate([piezo_pos.x, piezo_pos.y, under_top - piezo_ring_h])
                difference() {
                    cylinder(d = piezo_d + 2 * piezo_ring_t, h = piezo_ring_h + 0.01);
                    translate([0, 0, -1]) cylinder(d = piezo_d, h = piezo_ring_h + 1);
                }
        }
        at(posts, rim - 1) cylinder(d = screw_pilot_d, h = lid_h);
        at(oled_hole_xy, under_top - oled_glass.z - 1) cylinder(d = oled_hole_d, h = oled_glass.z);
        at(btn_post_xy, under_top - btn_gap - 1) cylinder(d = btn_post_hole_d, h = btn_gap);
        // OLED window, bevelled outwards so the screen reads from an angle
        w = oled_pos + oled_active_offset;
        translate([w.x, w.y, 0]) hull() {
            rbox(oled_window, 0.5, under_top - 0.01, under_top + 0.01);
            rbox(oled_window + [2, 2] * oled_chamfer, 0.5, lid_top - 0.01, lid_top + 0.01);
        }
        at(buttons, under_top - 1) cylinder(d = button_hole_d, h = top_t + 2);
        translate([piezo_pos.x, piezo_pos.y, under_top - 1]) {
            cylinder(d = vent_d, h = top_t + 2);
            for (i = [0 : vents - 1]) rotate(i * 360 / vents)
                translate([vent_ring_r, 0, 0]) cylinder(d = vent_d, h = top_t + 2);
        }
    }
}

// ---- the parts inside, for the picture ------------------------------------------------------
module pico_board() {
    translate([pico_x, pico_y, standoff_h]) {
        difference() {
            color("ForestGreen") translate([0, 0, pico.z / 2]) cube(pico, center = true);
            for (sx = [-1, 1], sy = [-1, 1])
                translate([sx * pico_holes.x / 2, sy * pico_holes.y / 2, -1]) cylinder(d = 2.1, h = 3);
        }
        color("Silver") translate([usb_side * (pico.x / 2 - 2.6 + 1.3), 0, pico.z + 1.4]) cube([5.7, 8, 2.8], center = true);
        color("Black") translate([-usb_side * 2, 0, pico.z + 0.5]) cube([7, 7, 1], center = true);
    }
}

module oled_module() {
    translate([oled_pos.x, oled_pos.y, under_top - oled_glass.z]) {
        color("RoyalBlue") translate([0, 0, -oled_pcb.z / 2]) cube(oled_pcb, center = true);
        color("Black") translate([oled_active_offset.x, oled_active_offset.y, oled_glass.z / 2])
            cube(oled_glass, center = true);
        color("DeepSkyBlue") translate([oled_active_offset.x, oled_active_offset.y, oled_glass.z])
            cube([oled_active.x, oled_active.y, 0.05], center = true);
        color("Gold") for (i = [0 : 3]) translate([(i - 1.5) * 2.54, oled_pcb.y / 2 - 1.5, -oled_pcb.z - 1])
            cylinder(d = 1, h = 1);
    }
}

module button_board() {
    top = under_top - btn_gap;
    color("Tan") translate([btn_board_pos.x, btn_board_pos.y, top - btn_board.z / 2])
        cube(btn_board, center = true);
    at(buttons, top) {
        color("DimGray") translate([0, 0, switch_body.z / 2]) cube(switch_body, center = true);
        color("Black") cylinder(d = 3.5, h = switch_h);
    }
}

module piezo() {
    color("DarkSlateGray") translate([piezo_pos.x, piezo_pos.y, under_top - piezo_h]) cylinder(d = piezo_d - 0.2, h = piezo_h);
}

// ---- what to show ---------------------------------------------------------------------------
if (part == "base") {
    translate([0, 0, floor_t]) base();
} else if (part == "lid") {
    translate([0, 0, lid_top]) rotate([180, 0, 0]) lid();
} else {
    color("SteelBlue") base();
    if (show_parts) pico_board();
    translate([0, 0, explode]) {
        color("LightSteelBlue") lid();
        if (show_parts) { oled_module(); button_board(); piezo(); }
    }
}
