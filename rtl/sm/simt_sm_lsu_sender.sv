// Load/store unit, the sender (docs/blocks/sm.md, "The sender"): the copies from which global
// instructions that are already done put out their requests while the core goes on, in
// instruction order.
//
// A global access of one group (a plain or v4 load or store, an atomic) is done in the unit's
// CHECK (a v4 store once its elements are gathered) and hands over here (take_i) what its
// requests need: its executing threads, its group's addresses, its store data or atomic
// operand (rb; a v4 store: element 3), a v4 store's elements 0-2 (the gather register, below)
// or cas's swap values (rc, at element 0's place), and what it is (v4, store, its atomic
// operation). The sender
// is a queue of Depth such instructions; the unit's coalescer works from the head's copies
// until the head's last request is sent (done_i), while the register file's ports, the
// instruction and its lanes on the unit's inputs are already a later instruction's. An
// instruction taken while the sender is empty may have sent its first request as it is taken
// (the unit keeps which of its threads are left, pend_q); one taken behind others has sent
// nothing. done_i with the sender empty is the last request of the instruction taken in that
// cycle: it never stays here.
// Its outputs are the next request's instruction and data: the head's copies while the
// sender works, else the instruction in the unit (the inputs, as it would be taken). Beside
// the queue it keeps the unit's gather register: a v4 store's elements 0-2 of its group, as
// GATHER reads them on port b (data_i), one a cycle (gather_i, elem_i); element 3 is rb's
// place. The request's data (data_o): a v4 store's element 0 (elements 1-3 in elems_o); cas:
// the swap value of the request's one lane (leader_i); else rb (b_o, also cas's compare
// value).
module simt_sm_lsu_sender #(
  parameter int  NumLanes = 32,
  parameter int  Depth    = 4,  // 0: no queue (the unit without Detach: take_i never comes)
  localparam int EntW     = 32 + NumLanes * 160 + 6  // exec, addr, data, elems, v4, store, amo
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   take_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [31:0]            exec_i,   // (exec_i, done_i: unused without a queue)
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [NumLanes*32-1:0] addr_i,
  input  logic [NumLanes*32-1:0] data_i,
  input  logic                   gather_i, // GATHER: element elem_i of the group on data_i
  input  logic [1:0]             elem_i,
  input  logic                   cas_i,    // kept at element 0's place: swap_i (cas's rc)
  input  logic [NumLanes*32-1:0] swap_i,
  input  logic                   v4_i,
  input  logic                   store_i,
  input  logic [3:0]             amo_i,    // simt_mem_pkg::amo_e (AmoNone: not an atomic)
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic                   done_i,   // the last request of the instruction sending
  /* verilator lint_on UNUSEDSIGNAL */
  output logic                   busy_o,   // an instruction's requests are still to send
  output logic                   busy_next_o,  // ... in the next cycle
  output logic                   room_o,   // another instruction may be taken
  output logic                   more_o,   // another instruction follows the head ...
  output logic [31:0]            more_exec_o,  // ... with these threads
  output logic [NumLanes*32-1:0] addr_o,   // the head's, else the inputs
  output logic [NumLanes*32-1:0] b_o,      // rb (a v4 store: element 3)
  input  logic [4:0]             leader_i, // the request's first thread (the coalescer's)
  output logic [NumLanes*32-1:0] data_o,   // the request's data (above)
  output logic [NumLanes*96-1:0] elems_o,  // a v4 store's elements 1-3 (lane l: l*96)
  output logic                   v4_o,
  output logic                   store_o,
  output logic [3:0]             amo_o
);

  // The gather register (elements 0-2), and what an entry keeps beside the data.
  logic [NumLanes*96-1:0] v4d_d, v4d_q, elems;
  always_comb begin
    v4d_d = v4d_q;
    elems = v4d_q;
    for (int l = 0; l < NumLanes; l++) begin
      for (int e = 0; e < 3; e++) begin  // (constant selects: no shifter across v4d)
        if (gather_i && elem_i == 2'(e)) v4d_d[l*96 + 32*e +: 32] = data_i[l*32 +: 32];
      end
      if (cas_i) elems[l*96 +: 32] = swap_i[l*32 +: 32];
    end
  end
  // The queue: entry i at [i*EntW +: EntW], the head at 0: {exec, addr, data, elems, v4,
  // store, amo}.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [EntW-1:0] head;  // (its threads: the sequencing's pend_q)
  /* verilator lint_on UNUSEDSIGNAL */
  if (Depth > 0) begin : g_queue
    localparam int CntW = $clog2(Depth + 1);
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
            ent_d[i*EntW +: EntW] = {exec_i, addr_i, data_i, elems, v4_i, store_i, amo_i};
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
    logic [EntW-1:0] second;
    /* verilator lint_on UNUSEDSIGNAL */
    assign head        = ent_q[0 +: EntW];
    assign second      = (Depth > 1) ? ent_q[(Depth > 1 ? 1 : 0)*EntW +: EntW] : '0;
    assign more_exec_o = second[EntW-1 -: 32];
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
  end else begin : g_no_queue
    // (No flip-flops: the queue's copies would be kept, never written, by synthesis.)
    assign busy_o      = 1'b0;
    assign busy_next_o = 1'b0;
    assign room_o      = 1'b0;
    assign more_o      = 1'b0;
    assign more_exec_o = '0;
    assign head        = '0;
`ifdef VERILATOR
    always_ff @(posedge clk_i) begin
      if (rst_ni) begin
        assert (!take_i) else $error("sm lsu sender: an instruction taken without a queue");
      end
    end
`endif
  end

  logic [NumLanes*96-1:0] e012;  // the request's elements 0-2 (or cas's swap values)
  assign addr_o  = busy_o ? head[6 + NumLanes*128 +: NumLanes*32] : addr_i;
  assign b_o     = busy_o ? head[6 + NumLanes*96 +: NumLanes*32] : data_i;
  assign e012    = busy_o ? head[6 +: NumLanes*96] : elems;
  assign v4_o    = busy_o ? head[5] : v4_i;
  assign store_o = busy_o ? head[4] : store_i;
  assign amo_o   = busy_o ? head[3:0] : amo_i;
  always_comb begin
    data_o = (amo_o == simt_mem_pkg::AmoCas) ? {NumLanes{e012[(32'(leader_i) % NumLanes)*96 +: 32]}}
                                             : b_o;
    for (int l = 0; l < NumLanes; l++) begin
      if (v4_o && store_o) data_o[l*32 +: 32] = e012[l*96 +: 32];
      elems_o[l*96 +: 96] = {b_o[l*32 +: 32], e012[l*96 + 32 +: 64]};
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v4d_q <= '0;
    else         v4d_q <= v4d_d;
  end

endmodule
