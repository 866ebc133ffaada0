// Load/store unit, in-flight table: the global memory instructions whose responses are still
// to come, and the scoreboard built on it (docs/blocks/sm.md, "Latency hiding").
//
// A global instruction takes a slot when its requests begin, or when it joins the load/store
// unit's sender behind others (alloc_i; its first request may go in the same cycle when no
// other instruction sends) and gives up the core once they are all sent (sent_i): the slot
// remembers what its responses need (warp, destination register, whether they write it, v4,
// each lane's word in its line, the PC for a late error) while the warp and the others go on
// issuing. Each request id remembers its slot, lanes and line (a v4 load's line carries all
// four elements). A slot is free again when it is sent and none of its ids is outstanding
// (freed_slots_o). Up to Sending instructions send at a time, one after the other
// in the order they took their slots (a queue of their slots): a request belongs to the
// oldest.
//
// The scoreboard is this table: the instruction in DE of warp de_w_i has a hazard when a
// busy slot of that warp writes a register it reads or writes (de_regs_i; a load's writes
// come back late, so RAW and WAW both wait), or, for membar, when the warp has any slot busy;
// de_hazard_slots_o names those slots, so that the issue unit wakes the warp when the last of
// them frees (freed_slots_o), not at the first slot of the warp that frees.
module simt_sm_lsu_inflight #(
  parameter int  NumWarps  = 8,
  parameter int  IdW       = 4,
  parameter int  Slots     = 8,
  parameter int  LineBytes = 64,
  parameter int  Sending   = 4,   // instructions whose requests are still to send, at most
  localparam int WarpW     = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int NumIds    = 1 << IdW,
  localparam int SlotW     = (Slots > 1) ? $clog2(Slots) : 1,
  localparam int OffW      = $clog2(LineBytes),
  localparam int WordW     = OffW - 2,
  localparam int QW        = $clog2(Sending + 1),
  localparam int AddrW     = 22
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,

  // The instruction whose requests begin: it takes the lowest free slot (free_o).
  output logic                   free_o,
  input  logic                   alloc_i,
  input  logic [WarpW-1:0]       warp_i,
  input  logic [AddrW-1:0]       pc_i,
  input  logic [4:0]             rd_i,
  input  logic                   writes_i,   // its responses write rd (loads, atomics)
  input  logic                   v4_i,
  input  logic [32*WordW-1:0]    words_i,    // each lane's word in its line (v4: element 0)
  input  logic                   sent_i,     // its last request goes this cycle

  // Requests and responses.
  input  logic                   req_i,
  input  logic [IdW-1:0]         req_id_i,
  input  logic [31:0]            req_lanes_i,
  input  logic [31:OffW]         req_line_i,
  output logic [NumIds-1:0]      out_o,      // ids outstanding
  input  logic                   rsp_i,      // an id given back (its response written)
  input  logic [IdW-1:0]         rsp_id_i,
  input  logic [NumIds-1:0]      rsp_ids_i,  // ids given back as a set (the v4 drain's lines)
  input  logic [IdW-1:0]         look_rsp_id_i,  // the response on the port: what it needs
  output logic [31:0]            rsp_lanes_o,
  output logic                   rsp_writes_o,
  output logic                   rsp_v4_o,
  output logic [WarpW-1:0]       rsp_warp_o,
  output logic [4:0]             rsp_reg_o,  // rd (a v4 load's: its element 0)
  output logic [AddrW-1:0]       rsp_pc_o,
  output logic [32*WordW-1:0]    rsp_words_o,
  output logic [31:OffW]         rsp_line_o,

  // Any outstanding id's warp (the L1's decisions name the id they decide).
  input  logic [IdW-1:0]         look_id_i,
  output logic [WarpW-1:0]       look_warp_o,

  // Scoreboard.
  input  logic [WarpW-1:0]       de_w_i,
  input  logic [31:0]            de_regs_i,  // registers the instruction in DE reads or writes
  input  logic                   de_membar_i,
  output logic                   de_hazard_o,
  output logic [Slots-1:0]       de_hazard_slots_o,  // ... the slots it waits for
  output logic [Slots-1:0]       freed_slots_o,  // slots that free this cycle
  output logic [NumWarps-1:0]    warp_busy_o,  // warps whose registers a slot still needs
  output logic                   quiet_o     // no slot busy
);

  logic [Slots-1:0]   busy_d, busy_q;        // taken, not yet free
  // The slots with requests still to be sent, in order, the oldest (the one whose requests go
  // out) at 0; as a mask, from these registers alone.
  logic [Sending*SlotW-1:0] sq_d, sq_q;
  logic [QW-1:0]      sn_d, sn_q;            // how many
  logic [SlotW-1:0]   cur;                   // the oldest
  logic [Slots-1:0]   sending;
  logic [NumIds-1:0]  out_d, out_q;
  logic [WarpW-1:0]   sl_warp_q   [Slots];
  logic [AddrW-1:0]   sl_pc_q     [Slots];
  logic [4:0]         sl_rd_q     [Slots];
  logic               sl_writes_q [Slots];
  logic               sl_v4_q     [Slots];
  logic [32*WordW-1:0] sl_words_q [Slots];
  logic [SlotW-1:0]   id_slot_q   [NumIds];
  logic [31:0]        id_lanes_q  [NumIds];
  logic [31:OffW]     id_line_q   [NumIds];

  // The lowest free slot.
  logic [SlotW-1:0] free_slot;
  always_comb begin
    free_o    = 1'b0;
    free_slot = '0;
    for (int s = Slots - 1; s >= 0; s--) begin
      if (!busy_q[s]) begin
        free_o    = 1'b1;
        free_slot = SlotW'(s);
      end
    end
  end

  // The slot a request of this cycle belongs to: the oldest sending, or with none the one
  // taken in this very cycle (the load/store unit may send an instruction's first request as
  // it allocates, when no other sends).
  logic [SlotW-1:0] req_slot;
  assign cur      = sq_q[0 +: SlotW];
  assign req_slot = (sn_q == '0) ? free_slot : cur;
  always_comb begin
    sending = '0;
    for (int i = 0; i < Sending; i++) begin
      if (QW'(i) < sn_q) sending[sq_q[i*SlotW +: SlotW]] = 1'b1;
    end
  end

  // Slots with an id outstanding after this cycle.
  logic [Slots-1:0] has_out;
  always_comb begin
    has_out = '0;
    for (int i = 0; i < NumIds; i++) begin
      if (out_d[i] && !(req_i && req_id_i == IdW'(i))) has_out[id_slot_q[i]] = 1'b1;
    end
    // An id taken this cycle belongs to the slot sending (its table entry is written now).
    if (req_i) has_out[req_slot] = 1'b1;
  end

  always_comb begin
    busy_d    = busy_q;
    sq_d      = sq_q;
    sn_d      = sn_q;
    out_d     = out_q;
    freed_slots_o = '0;
    if (req_i) out_d[req_id_i] = 1'b1;
    if (rsp_i) out_d[rsp_id_i] = 1'b0;
    out_d = out_d & ~rsp_ids_i;
    if (alloc_i) busy_d[free_slot] = 1'b1;
    // The oldest's last request leaves the queue (with none sending: the one taken now, whose
    // first request was its last, never joins it).
    if (sent_i && sn_q != '0) begin
      for (int i = 0; i + 1 < Sending; i++) sq_d[i*SlotW +: SlotW] = sq_q[(i+1)*SlotW +: SlotW];
      sn_d = sn_q - 1'b1;
    end
    if (alloc_i && !(sent_i && sn_q == '0)) begin
      for (int i = 0; i < Sending; i++) begin
        if (sn_d == QW'(i)) sq_d[i*SlotW +: SlotW] = free_slot;
      end
      sn_d = sn_d + 1'b1;
    end
    // A slot frees once it was sent in an earlier cycle: its last request goes in the cycle
    // it is sent (asserted), so that cycle it still has an id out; reading the registered
    // queue keeps the coalescer's last-request decision off freed_slots_o and the issue unit.
    for (int s = 0; s < Slots; s++) begin
      if (busy_q[s] && !sending[s] && !has_out[s]) begin
        busy_d[s]        = 1'b0;
        freed_slots_o[s] = 1'b1;
      end
    end
  end

  // A response's slot.
  logic [SlotW-1:0] rs;
  assign rs           = id_slot_q[look_rsp_id_i];
  assign rsp_lanes_o  = id_lanes_q[look_rsp_id_i];
  assign rsp_writes_o = sl_writes_q[rs];
  assign rsp_v4_o     = sl_v4_q[rs];
  assign rsp_warp_o   = sl_warp_q[rs];
  assign rsp_reg_o    = sl_rd_q[rs];
  assign rsp_pc_o     = sl_pc_q[rs];
  assign rsp_words_o  = sl_words_q[rs];
  assign rsp_line_o   = id_line_q[look_rsp_id_i];
  assign look_warp_o  = sl_warp_q[id_slot_q[look_id_i]];
  assign out_o        = out_q;
  assign quiet_o      = busy_q == '0;
  // A warp is busy (its CTA may not retire, its slot not be launched again) while a slot of
  // it still sends (a v4 store reads its data registers) or will write its registers (a load's
  // or an atomic's responses). A store whose requests are all sent holds its warp no more: its
  // acknowledgements change no register, the memory performs requests in the order it takes
  // them (a later CTA's accesses come after it), and the run is done only when every slot is
  // free (quiet_o).
  always_comb begin
    warp_busy_o = '0;
    for (int s = 0; s < Slots; s++) begin
      if (busy_q[s] && (sl_writes_q[s] || sending[s])) warp_busy_o[sl_warp_q[s]] = 1'b1;
    end
  end

  // The scoreboard: registers a busy slot of warp de_w_i will still write.
  always_comb begin
    de_hazard_o       = 1'b0;
    de_hazard_slots_o = '0;
    for (int s = 0; s < Slots; s++) begin
      logic [31:0] regs;
      regs = '0;
      if (sl_writes_q[s]) begin
        for (int e = 0; e < 4; e++) begin
          if (e == 0 || sl_v4_q[s]) regs[sl_rd_q[s] + 5'(e)] = 1'b1;
        end
      end
      if (busy_q[s] && sl_warp_q[s] == de_w_i && ((regs & de_regs_i) != '0 || de_membar_i)) begin
        de_hazard_o          = 1'b1;
        de_hazard_slots_o[s] = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q    <= '0;
      sq_q      <= '0;
      sn_q      <= '0;
      out_q     <= '0;
    end else begin
      busy_q    <= busy_d;
      sq_q      <= sq_d;
      sn_q      <= sn_d;
      out_q     <= out_d;
    end
  end

  // Table contents (no reset: read only while their slot is busy or their id outstanding).
  always_ff @(posedge clk_i) begin
    if (alloc_i) begin
      sl_warp_q[free_slot]   <= warp_i;
      sl_pc_q[free_slot]     <= pc_i;
      sl_rd_q[free_slot]     <= rd_i;
      sl_writes_q[free_slot] <= writes_i;
      sl_v4_q[free_slot]     <= v4_i;
      sl_words_q[free_slot]  <= words_i;
    end
    if (req_i) begin
      id_slot_q[req_id_i]  <= req_slot;
      id_lanes_q[req_id_i] <= req_lanes_i;
      id_line_q[req_id_i]  <= req_line_i;
    end
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(alloc_i && !free_o)) else $error("sm lsu: a slot taken with none free");
      assert (!(req_i && (!(alloc_i || sn_q != '0) || out_q[req_id_i])))
        else $error("sm lsu: a request outside a sending slot, or on an outstanding id");
      assert ((rsp_ids_i & ~out_q) == '0)
        else $error("sm lsu: an id given back (drain) that is not outstanding");
      assert (!(rsp_i && !out_q[rsp_id_i]))
        else $error("sm lsu: a response to no outstanding request");
      assert (!(sent_i && sn_q == '0 && !alloc_i))
        else $error("sm lsu: sent with no instruction sending");
      assert (!(alloc_i && sn_q == QW'(Sending) && !sent_i))
        else $error("sm lsu: more than %0d instructions sending", Sending);
      // The queue names distinct slots, each taken.
      assert ($countones(sending) == 32'(sn_q) && (sending & ~busy_q) == '0)
        else $error("sm lsu: the sending queue names a slot twice, or a free one (%b, busy %b)",
                    sending, busy_q);
      assert (!(sent_i && !req_i)) else $error("sm lsu: sent without its last request");
      for (int i = 0; i < NumIds; i++) begin
        if (out_q[i]) assert (busy_q[id_slot_q[i]])
          else $error("sm lsu: id %0d outstanding for a free slot", i);
      end
    end
  end
`endif

endmodule
