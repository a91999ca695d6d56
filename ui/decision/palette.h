// SPDX-License-Identifier: Apache-2.0
//
// The workbench's colours, one place for every view. Policies take the
// Okabe-Ito palette (safe for the common colour-vision deficiencies) in a
// fixed order, so a policy keeps its colour in the grid frame, the diagram,
// the lists and the charts. Distance classes take one sequential ramp
// (viridis, also colour-blind safe and readable in grey), near = light,
// far = dark, used by the grid's arrows and the placement chart alike.
#pragma once

#include <QColor>
#include <array>
#include <cstddef>

#include "topology/distance.h"

namespace wb::palette {

// Okabe & Ito (2008), "Color Universal Design". Blue and vermillion first:
// the pair that stays most distinct for every deficiency, for the usual
// two-policy comparison.
inline const std::array<QColor, 8>& okabe_ito()
{
    static const std::array<QColor, 8> colours{
        QColor(0x00, 0x72, 0xb2),  // blue
        QColor(0xd5, 0x5e, 0x00),  // vermillion
        QColor(0x00, 0x9e, 0x73),  // bluish green
        QColor(0xcc, 0x79, 0xa7),  // reddish purple
        QColor(0xe6, 0x9f, 0x00),  // orange
        QColor(0x56, 0xb4, 0xe9),  // sky blue
        QColor(0xf0, 0xe4, 0x42),  // yellow
        QColor(0x00, 0x00, 0x00),  // black
    };
    return colours;
}

// The colour of the index-th policy of a run (wraps after eight).
inline QColor policy_colour(int index)
{
    const auto& c = okabe_ito();
    return c[static_cast<std::size_t>(index < 0 ? 0 : index) % c.size()];
}

// same_cpu ... other_node, light to dark.
inline QColor distance_colour(DistanceClass c)
{
    static const std::array<QColor, kDistanceClassCount> ramp{
        QColor(0xfd, 0xe7, 0x25),  // same_cpu
        QColor(0x7a, 0xd1, 0x51),  // smt_sibling
        QColor(0x22, 0xa8, 0x84),  // cluster
        QColor(0x2a, 0x78, 0x8e),  // llc
        QColor(0x41, 0x44, 0x87),  // other_llc
        QColor(0x44, 0x01, 0x54),  // other_node
    };
    return ramp[static_cast<std::size_t>(c)];
}

// A wakeup the policies (or the model and the kernel) decided differently:
// the row's background in the lists. Light enough that black text stays
// readable on it; orange is the colour the topology grid outlines with too.
inline QColor divergence_background()
{
    return QColor(0xfc, 0xe4, 0xb8);
}

// The kernel's own choice in a replayed trace, on the grid: a dashed ring
// and a K tag, distinct from the model's solid ring.
inline QColor kernel_mark()
{
    return QColor(0xc0, 0x1c, 0x28);
}

// Untaken diagram edges and idle nodes: present, never competing with a policy.
inline QColor inactive()
{
    return QColor(0xb8, 0xbc, 0xc2);
}

}  // namespace wb::palette
