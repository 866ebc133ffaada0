// Load/store unit, coalescer: of the lanes still to request, the lowest (the leader) and
// every other lane whose access falls in the leader's line form one memory request
// (an atomic: the leader alone, since each lane's atomic returns its own old word). A store's
// words are merged in ascending lane order, so where lanes write one word the highest lane's
// data is the one written (ISA.md: lanes take effect in ascending lane order).
//
// With NumLanes physical lanes (issue #26) it looks at one group of NumLanes threads at a
// time, as the pass sequencer groups them (simt_sm_pkg::group_of): the group of the lowest
// thread still to request (first_i, its first thread). The unit hands in the group's
// addresses and data already on the lanes (lane l: thread first + l; one selection in
// simt_sm_lsu serves this and the shared-memory unit); the leader is the group's lowest, and
// only the group's threads on the leader's line join the request; the next group's requests
// follow once the group's are sent. A line touched by two groups is requested once per group
// (in the L1 a load's second request merges into the first's miss or hits).
// The comparators and the line crossbar are NumLanes wide; at 32 there is one group.
module simt_sm_lsu_coalesce #(
  parameter int  NumLanes  = 32,
  parameter int  LineBytes = 64,
  localparam int LaneW     = $clog2(NumLanes),
  localparam int LineWords = LineBytes / 4,
  localparam int OffW      = $clog2(LineBytes),
  localparam int NumGroups = 32 / NumLanes
) (
  input  logic [31:0]              pend_i,   // lanes still to request
  input  logic [4:0]               first_i,  // their group's first thread
  input  logic [NumLanes*32-1:0]   addr_i,   // the group's addresses (v4: element 0's)
  input  logic                     v4_i,
  input  logic                     single_i, // one lane per request (atomics)
  input  logic [NumLanes*32-1:0]   data_i,   // the group's store data (or atomic operand;
  input  logic [NumLanes*96-1:0]   elems_i,  // ... a v4 store's element 0, and 1-3 here)
  output logic [4:0]               leader_o,
  output logic [LaneW-1:0]         lane_o,   // the leader's lane
  output logic [31:0]              group_o,
  output logic                     rest_o,   // lanes of the group left after this request
  output logic [31:0]              line_addr_o,
  output logic [LineBytes-1:0]     be_o,
  output logic [LineBytes*8-1:0]   wdata_o
);

  // The group's threads still to request, on the lanes.
  logic [4:0]          first;
  logic [NumLanes-1:0] pend;
  logic [4:0]          leader;  // a lane
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0]         pend_sh;
  logic [31:0]         leader_addr;  // its line
  /* verilator lint_on UNUSEDSIGNAL */
  assign first   = first_i;
  assign pend_sh = pend_i >> first;
  // The lanes of the lowest group with a thread to request (first's group): picked by the
  // groups' ORs, not shifted by first (a priority encoder over 32 threads; the board core's
  // longest chain started there, 2026-12-06). Asserted equal to the shift.
  logic none_below;
  always_comb begin
    pend       = '0;
    none_below = 1'b1;
    for (int g = 0; g < NumGroups; g++) begin
      if (none_below) pend = pend_i[g*NumLanes +: NumLanes];
      none_below = none_below && pend_i[g*NumLanes +: NumLanes] == '0;
    end
  end
  assign leader  = simt_sm_pkg::lowest(32'(pend));

  assign leader_o    = first + leader;
  assign lane_o      = leader[LaneW-1:0];
  logic [31:0] lane_addr [NumLanes];
  logic [31:0] lane_data [NumLanes];
  always_comb begin
    for (int l = 0; l < NumLanes; l++) begin
      lane_addr[l] = addr_i[l*32 +: 32];
      lane_data[l] = data_i[l*32 +: 32];
    end
  end
  assign leader_addr = lane_addr[leader[LaneW-1:0]];
  assign line_addr_o = {leader_addr[31:OffW], {OffW{1'b0}}};

  // A lane's word in its line. A v4 lane is 16-byte aligned: its four elements are the four
  // words of its quad (16 bytes) and never leave the line, so it is on word w when its quad
  // is w's, and gives element w mod 4.
  logic [OffW-3:0]     word [NumLanes];
  logic [NumLanes-1:0] group;
  logic [NumLanes-1:0] on_line;  // lanes on the leader's line
  logic [NumLanes-1:0] lead1h;   // the leader, one-hot (a carry chain, not its encoder)
  assign lead1h = pend & (~pend + 1'b1);
  always_comb begin
    for (int l = 0; l < NumLanes; l++) begin
      word[l]  = lane_addr[l][OffW-1:2];
      group[l] = pend[l] && on_line[l] && (!single_i || lead1h[l]);
    end
  end
  assign group_o = 32'(group) << first;
  // Whether the group's lanes are all served by this request, from the lanes before the
  // shift: the unit's next group follows from it without the request's 32 threads (the
  // board core's longest chain ran through group_o into the next group, 2026-12-06).
  assign rest_o = (pend & ~group) != '0;

  // At up to 8 lanes every pair of lanes is compared, and a lane is on the leader's line
  // when its pair with the leader (one-hot, from a carry chain) matches: the compares no
  // longer wait for the leader's address (its priority encoder and mux), the board core's
  // longest chain (2026-12-06). The pairs grow as the square of the lanes: at more lanes the
  // leader's address is compared with each lane's.
  if (NumLanes <= 8) begin : g_pairs
    logic [NumLanes-1:0] same [NumLanes];  // same[l][k]: lane k < l on lane l's line
    always_comb begin
      for (int l = 0; l < NumLanes; l++) begin
        for (int k = 0; k < NumLanes; k++) begin
          // (The leader is the lowest lane still to request: never above a lane that is.)
          same[l][k] = (k == l) || (k < l && lane_addr[l][31:OffW] == lane_addr[k][31:OffW]);
        end
        on_line[l] = (lead1h & same[l]) != '0;
      end
    end
`ifdef VERILATOR
    // The pairs say what comparing with the leader's address says.
    always_comb begin
      for (int l = 0; l < NumLanes; l++) begin
        if (pend[l])
          assert (on_line[l] == (lane_addr[l][31:OffW] == leader_addr[31:OffW]))
            else $error("lsu coalesce: lane %0d's line match with the leader's is %b", l,
                        on_line[l]);
      end
    end
`endif
  end else begin : g_leader
    always_comb begin
      for (int l = 0; l < NumLanes; l++) begin
        on_line[l] = lane_addr[l][31:OffW] == leader_addr[31:OffW];
      end
    end
  end

  // Word by word, the highest lane of the group on it (its index), then a mux on the index:
  // ECP5 LUTs stay about NumLanes per bit, where one-hot selects and an AND-OR tree let the
  // select logic be rebuilt inside every bit's LUTs (several times the area). Words no lane
  // writes are zero.
  logic [LaneW-1:0]     src [LineWords];
  logic [LineWords-1:0] hit;
  always_comb begin
    for (int w = 0; w < LineWords; w++) begin
      src[w] = '0;
      hit[w] = 1'b0;
      for (int l = 0; l < NumLanes; l++) begin
        if (group[l] && (v4_i ? 32'(word[l]) / 4 == w / 4
                              : word[l] == (OffW-2)'(w))) begin
          src[w] = LaneW'(l);
          hit[w] = 1'b1;
        end
      end
    end
  end

  // A v4 access covers its lanes' 16 bytes (a load asks for all four elements, a store
  // writes them: word w of the quad is element w mod 4, element 0 on data_i).
  // (The lanes' words for each place in a quad, picked before the word's mux.)
  logic [31:0] quad_data [4][NumLanes];
  always_comb begin
    for (int e = 0; e < 4; e++) begin
      for (int l = 0; l < NumLanes; l++) begin
        quad_data[e][l] = (v4_i && e != 0) ? elems_i[l*96 + (e - 1)*32 +: 32] : lane_data[l];
      end
    end
    for (int w = 0; w < LineWords; w++) begin
      be_o[w*4 +: 4]      = {4{hit[w]}};
      wdata_o[w*32 +: 32] = hit[w] ? quad_data[w % 4][src[w]] : 32'd0;
    end
  end

`ifdef VERILATOR
  always_comb begin
    if (pend_i != '0) begin
      assert (group_o[leader_o]) else $error("lsu coalesce: the leader is not in its request");
      assert ((group_o & ~pend_i) == '0) else $error("lsu coalesce: a lane requested twice");
      assert ((group_o & ~simt_sm_pkg::group_of(pend_i, NumLanes)) == '0)
        else $error("lsu coalesce: a request mixes groups of lanes");
      assert (first_i == simt_sm_pkg::group_first(pend_i, NumLanes))
        else $error("lsu coalesce: the lanes hold another group than the lowest thread's");
      assert (pend == pend_sh[NumLanes-1:0])
        else $error("lsu coalesce: the group's lanes %b, shifted by first %b", pend,
                    pend_sh[NumLanes-1:0]);
      assert (lead1h == NumLanes'(1) << leader)
        else $error("lsu coalesce: one-hot leader %b, leader lane %0d", lead1h, leader);
      assert (rest_o == ((simt_sm_pkg::group_of(pend_i, NumLanes) & pend_i & ~group_o) != '0))
        else $error("lsu coalesce: lanes left in the group: %b", rest_o);
    end
  end
`endif

endmodule
