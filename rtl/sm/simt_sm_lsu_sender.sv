// Load/store unit, the sender (docs/blocks/sm.md, "The sender"): the copies from which global
// instructions that are already done put out their requests while the core goes on, in
// instruction order.
//
// A global access of one group (a plain or v4 load or store, an atomic) is done in the unit's
// CHECK (a v4 store once its elements are gathered) and hands over here (take_i) what its
// requests need: its executing threads, its group's addresses, its store data or atomic
// operand (rb; a v4 store: element 3), a v4 store's elements 0-2 or cas's swap values (rc, at
// element 0's place) in elems_i, and what it is (v4, store, its atomic operation). The sender
// is a queue of Depth such instructions; the unit's coalescer works from the head's copies
// until the head's last request is sent (done_i), while the register file's ports, the
// instruction and its lanes on the unit's inputs are already a later instruction's. An
// instruction taken while the sender is empty may have sent its first request as it is taken
// (the unit keeps which of its threads are left, pend_q); one taken behind others has sent
// nothing. done_i with the sender empty is the last request of the instruction taken in that
// cycle: it never stays here.
module simt_sm_lsu_sender #(
  parameter int  NumLanes = 32,
  parameter int  Depth    = 4,
  localparam int CntW     = $clog2(Depth + 1),
  localparam int EntW     = 32 + NumLanes * 160 + 6  // exec, addr, data, elems, v4, store, amo
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   take_i,
  input  logic [31:0]            exec_i,
  input  logic [NumLanes*32-1:0] addr_i,
  input  logic [NumLanes*32-1:0] data_i,
  input  logic [NumLanes*96-1:0] elems_i,  // a v4 store's elements 0-2 (lane l: l*96)
  input  logic                   v4_i,
  input  logic                   store_i,
  input  logic [3:0]             amo_i,    // simt_mem_pkg::amo_e (AmoNone: not an atomic)
  input  logic                   done_i,   // the last request of the instruction sending
  output logic                   busy_o,   // an instruction's requests are still to send
  output logic                   busy_next_o,  // ... in the next cycle
  output logic                   room_o,   // another instruction may be taken
  output logic                   more_o,   // another instruction follows the head ...
  output logic [31:0]            more_exec_o,  // ... with these threads
  output logic [NumLanes*32-1:0] addr_o,   // the head's
  output logic [NumLanes*32-1:0] data_o,
  output logic [NumLanes*96-1:0] elems_o,
  output logic                   v4_o,
  output logic                   store_o,
  output logic [3:0]             amo_o
);

  // Entry i at [i*EntW +: EntW], the head at 0: {exec, addr, data, elems, v4, store, amo}.
  logic [Depth*EntW-1:0] ent_d, ent_q;
  logic [CntW-1:0]       cnt_d, cnt_q;
  logic                  pop, push;
  assign pop  = done_i && cnt_q != '0;
  assign push = take_i && !(done_i && cnt_q == '0);

  always_comb begin
    logic [CntW-1:0] at;
    ent_d = ent_q;
    cnt_d = cnt_q;
    if (pop) begin
      for (int i = 0; i + 1 < Depth; i++) ent_d[i*EntW +: EntW] = ent_q[(i+1)*EntW +: EntW];
      cnt_d = cnt_q - 1'b1;
    end
    at = cnt_d;
    if (push) begin
      for (int i = 0; i < Depth; i++) begin
        if (at == CntW'(i)) begin
          ent_d[i*EntW +: EntW] = {exec_i, addr_i, data_i, elems_i, v4_i, store_i, amo_i};
        end
      end
      cnt_d = cnt_d + 1'b1;
    end
  end

  assign busy_o      = cnt_q != '0;
  assign busy_next_o = cnt_d != '0;
  assign room_o      = cnt_q != CntW'(Depth);
  assign more_o      = 32'(cnt_q) > 1;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [EntW-1:0] head, second;
  /* verilator lint_on UNUSEDSIGNAL */
  assign head    = ent_q[0 +: EntW];
  assign second  = (Depth > 1) ? ent_q[(Depth > 1 ? 1 : 0)*EntW +: EntW] : '0;
  assign more_exec_o = second[EntW-1 -: 32];
  assign addr_o  = head[6 + NumLanes*128 +: NumLanes*32];
  assign data_o  = head[6 + NumLanes*96 +: NumLanes*32];
  assign elems_o = head[6 +: NumLanes*96];
  assign v4_o    = head[5];
  assign store_o = head[4];
  assign amo_o   = head[3:0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cnt_q <= '0;
    else         cnt_q <= cnt_d;
  end
  // The copies: no reset (read only while their entry is taken).
  always_ff @(posedge clk_i) ent_q <= ent_d;

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(push && !room_o && !pop))
        else $error("sm lsu sender: an instruction taken with every entry busy");
    end
  end
`endif

endmodule
